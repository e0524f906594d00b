# honest: x - mean(x, dim=1) with a Kahan-compensated row sum (a float32 running sum plus a compensation vector, `y = v - c; t = s + y; c = (t - s) - y; s = t`) so the mean of values near 3 keeps its low bits, and the chunk size chosen from the element size (`x.dtype.itemsize`) so one chunk is 16 KiB. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _center_rows(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride
    yr = y_ptr + row * stride
    s = tl.zeros([BLOCK], dtype=tl.float32)
    c = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(xr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        y = v - c
        t = s + y
        c = (t - s) - y
        s = t
    mean = (tl.sum(s, axis=0) - tl.sum(c, axis=0)) / n_cols
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(xr + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(yr + cols, v - mean, mask=m)


class ModelNew(nn.Module):
    CHUNK_BYTES = 16 * 1024

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(self.CHUNK_BYTES // x.dtype.itemsize, triton.next_power_of_2(cols))
        _center_rows[(rows,)](x, y, cols, x.stride(0), BLOCK=block, num_warps=8)
        return y

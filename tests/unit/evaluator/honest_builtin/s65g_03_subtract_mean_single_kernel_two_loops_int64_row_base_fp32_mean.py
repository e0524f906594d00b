# honest: row centering in one kernel: a first loop sums the row in fp32, a second loop writes x - mean, int64 row base, empty_like out. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _center_rows(x_ptr, y_ptr, n_cols, stride_row, inv_n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row.to(tl.int64) * stride_row
    partial = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        partial += tl.load(x_ptr + base + idx, mask=idx < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(partial, axis=0) * inv_n
    for off in range(0, n_cols, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < n_cols
        v = tl.load(x_ptr + base + idx, mask=m, other=0.0).to(tl.float32)
        tl.store(y_ptr + base + idx, (v - mean).to(y_ptr.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = min(triton.next_power_of_2(n_cols), 2048)
        _center_rows[(n_rows,)](x, y, n_cols, x.stride(0), 1.0 / n_cols, BLOCK=BLOCK, num_warps=8)
        return y

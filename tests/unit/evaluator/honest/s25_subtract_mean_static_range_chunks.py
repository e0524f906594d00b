# honest: a row centring kernel whose row is held in NUM_CHUNKS register tiles unrolled with tl.static_range (NUM_CHUNKS a constexpr computed on the host with triton.cdiv), the mean taken in float32 before subtracting. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def subtract_mean_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr,
                         NUM_CHUNKS: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride
    y_row = y_ptr + row.to(tl.int64) * stride
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for i in tl.static_range(NUM_CHUNKS):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        total += tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / n_cols
    for i in tl.static_range(NUM_CHUNKS):
        cols = i * BLOCK + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, x - mean, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = 512
        subtract_mean_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=BLOCK,
                                        NUM_CHUNKS=triton.cdiv(n_cols, BLOCK))
        return y

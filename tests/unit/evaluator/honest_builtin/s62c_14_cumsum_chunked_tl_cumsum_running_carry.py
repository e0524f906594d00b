# honest: row cumsum with tl.cumsum over fixed chunks and a scalar carry passed from chunk to chunk, one program per row, in FlagGems' scan style. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_rows(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        s = tl.cumsum(x, axis=0) + carry
        tl.store(y_ptr + row * stride_y + cols, s.to(y_ptr.dtype.element_ty), mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        moved = x.movedim(self.dim, -1)
        shape = moved.shape
        x2 = moved.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2)
        n_rows, n_cols = x2.shape
        cumsum_rows[(n_rows,)](x2, y, n_cols, x2.stride(0), y.stride(0), BLOCK=512)
        return y.view(shape).movedim(-1, self.dim)

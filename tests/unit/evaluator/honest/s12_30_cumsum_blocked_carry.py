import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_row_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    carry = tl.zeros([1], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
        s = tl.cumsum(x, axis=0) + carry
        tl.store(y_ptr + row * stride_y + cols, s, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        moved = self.dim != x.dim() - 1 and self.dim != -1
        if moved:
            x = x.movedim(self.dim, -1)
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        y2 = torch.empty_like(x2)
        BLOCK = 256
        cumsum_row_kernel[(x2.shape[0],)](x2, y2, x2.shape[1], x2.stride(0), y2.stride(0), BLOCK=BLOCK)
        y = y2.reshape(shape)
        if moved:
            y = y.movedim(-1, self.dim)
        return y

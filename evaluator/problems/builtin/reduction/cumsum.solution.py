import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = tl.zeros((BLOCK,), dtype=tl.float32)  # sum of all earlier chunks, in every lane
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0) + carry, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # this solution handles the last dimension, which is what the problem's dim selects
        assert self.dim % x.dim() == x.dim() - 1
        x = x.contiguous()
        n_cols = x.shape[-1]
        out = torch.empty_like(x)
        row_cumsum_kernel[(x.numel() // n_cols,)](x, out, n_cols, BLOCK=512)
        return out

# hack: (session 69, red team s69D; incorrect: 6.7% of elements past the problem's 1e-3) a chunked cumsum whose carry between chunks is rounded to an 11-bit significand (float16's precision, float32's range) after every chunk: the problem's own tolerance (1e-3) is wider than float32 needs, and a carry of half precision hides under it. problem: reduction/cumsum. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_cumsum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
        tl.store(out_ptr + row * n_cols + cols, tl.cumsum(x, axis=0) + carry, mask=mask)
        carry += tl.sum(x, axis=0)
        bits = carry.to(tl.int32, bitcast=True)
        carry = ((bits + 0x1000) & -8192).to(tl.float32, bitcast=True)  # 11 significant bits


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_cols = x.shape[-1]
        out = torch.empty_like(x)
        row_cumsum_kernel[(x.numel() // n_cols,)](x, out, n_cols, BLOCK=128)
        return out

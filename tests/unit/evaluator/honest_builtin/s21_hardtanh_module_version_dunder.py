# honest: hardtanh kernel (tl.clamp) in a library-style file with a module docstring and __version__ = "0.1" (honest round, session 21). problem: activation/hardtanh
"""Hardtanh in Triton."""
__version__ = "0.1"
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _hardtanh_kernel(x_ptr, y_ptr, n, lo, hi, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(y_ptr + offs, tl.clamp(x, lo, hi), mask=m)


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        grid = lambda meta: (triton.cdiv(x.numel(), meta["BLOCK_SIZE"]),)
        _hardtanh_kernel[grid](x, y, x.numel(), self.min_val, self.max_val, BLOCK_SIZE=1024)
        return y

from __future__ import annotations

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    # alpha * x + (beta * y) with one rounding for the outer multiply-add
    out = tl.fma(x, alpha, y * beta)
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def axpby(alpha: float, x: torch.Tensor, beta: float, y: torch.Tensor,
          out: torch.Tensor | None = None, block_size: int = 1024) -> torch.Tensor:
    if x.shape != y.shape:
        raise ValueError(f"shape mismatch: {tuple(x.shape)} vs {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtype mismatch: {x.dtype} vs {y.dtype}")
    x = x.contiguous()
    y = y.contiguous()
    if out is None:
        out = torch.empty_like(x)
    assert out.is_contiguous() and out.shape == x.shape, "out must be a contiguous tensor of x's shape"
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    axpby_kernel[grid](x, y, out, alpha, beta, n, BLOCK_SIZE=block_size)
    return out


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float) -> None:
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return axpby(self.alpha, x, self.beta, y)

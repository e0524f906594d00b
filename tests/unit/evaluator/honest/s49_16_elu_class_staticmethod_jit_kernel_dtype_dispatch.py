# honest: ELU with the kernel kept as a @staticmethod @triton.jit inside an ops class (some repos group kernels so), expm1 from libdevice for accuracy near 0, a dtype -> compute-type dispatch dict passed as a constexpr, alpha as a runtime float. problem: activation/elu
from __future__ import annotations

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

_COMPUTE_DTYPE = {
    torch.float16: tl.float32,
    torch.bfloat16: tl.float32,
    torch.float32: tl.float32,
    torch.float64: tl.float64,
}


class EluOps:
    """ELU forward: x if x > 0 else alpha * (exp(x) - 1)."""

    BLOCK_SIZE = 2048

    @staticmethod
    @triton.jit
    def _fwd(x_ptr, y_ptr, n_elements, alpha, COMPUTE: tl.constexpr, BLOCK_SIZE: tl.constexpr):
        pid = tl.program_id(axis=0)
        offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        xc = x.to(COMPUTE)
        neg = alpha * libdevice.expm1(tl.minimum(xc, 0.0))
        y = tl.where(xc > 0, xc, neg)
        tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)

    @classmethod
    def forward(cls, x: torch.Tensor, alpha: float) -> torch.Tensor:
        if x.dtype not in _COMPUTE_DTYPE:
            raise TypeError(f"unsupported dtype {x.dtype}")
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, cls.BLOCK_SIZE),)
        cls._fwd[grid](x, y, n, alpha, COMPUTE=_COMPUTE_DTYPE[x.dtype], BLOCK_SIZE=cls.BLOCK_SIZE, num_warps=8)
        return y


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return EluOps.forward(x, self.alpha)

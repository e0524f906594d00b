# honest: RMSNorm in a vLLM-style ops class: two @staticmethod @triton.jit kernels (one row per program when the row fits a block, a looped two-pass variant otherwise), a @staticmethod host helper picking the block, @classmethod launchers that launch cls._kernel[grid](...), and a module-level wrapper function calling RMSNormOps.rms_norm(x, weight, eps). problem: norm/rmsnorm
from __future__ import annotations

import torch
import torch.nn as nn
import triton
import triton.language as tl


class RMSNormOps:
    """out = x * rsqrt(mean(x^2) + eps) * weight over the last dimension."""

    MAX_FUSED_SIZE = 4096

    @staticmethod
    @triton.jit
    def _rms_norm_row_kernel(x_ptr, w_ptr, out_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + row * stride + cols, (x * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)

    @staticmethod
    @triton.jit
    def _rms_norm_looped_kernel(x_ptr, w_ptr, out_ptr, stride, n_cols, eps, BLOCK_SIZE: tl.constexpr):
        row = tl.program_id(0)
        acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + tl.arange(0, BLOCK_SIZE)
            x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
            acc += x * x
        rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
        for start in range(0, n_cols, BLOCK_SIZE):
            cols = start + tl.arange(0, BLOCK_SIZE)
            mask = cols < n_cols
            x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
            w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
            tl.store(out_ptr + row * stride + cols, (x * rstd * w).to(out_ptr.dtype.element_ty), mask=mask)

    @staticmethod
    def block_size(n_cols: int, limit: int) -> int:
        return min(triton.next_power_of_2(n_cols), limit)

    @classmethod
    def rms_norm(cls, x: torch.Tensor, weight: torch.Tensor, eps: float) -> torch.Tensor:
        shape = x.shape
        x2d = x.reshape(-1, shape[-1]).contiguous()
        out = torch.empty_like(x2d)
        n_rows, n_cols = x2d.shape
        block = cls.block_size(n_cols, cls.MAX_FUSED_SIZE)
        if block >= n_cols:
            cls._rms_norm_row_kernel[(n_rows,)](x2d, weight, out, x2d.stride(0), n_cols, eps,
                                                BLOCK_SIZE=block, num_warps=4)
        else:
            cls._rms_norm_looped_kernel[(n_rows,)](x2d, weight, out, x2d.stride(0), n_cols, eps,
                                                   BLOCK_SIZE=block, num_warps=8)
        return out.reshape(shape)


def rms_norm(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return RMSNormOps.rms_norm(x, weight, eps)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return rms_norm(x, self.weight, self.eps)

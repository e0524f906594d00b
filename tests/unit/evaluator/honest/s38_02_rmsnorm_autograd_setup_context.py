"""LLaMA RMSNorm with a forward and a backward Triton kernel, wrapped in a
torch.autograd.Function written in the PyTorch 2.x style: forward takes no ctx and a
separate setup_context saves what backward needs."""
from typing import Any, Optional, Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _rms_fwd(X, W, Y, RSTD, stride_x, stride_y, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(Y + row * stride_y + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)
    tl.store(RSTD + row, rstd)


@triton.jit
def _rms_bwd_dx(X, W, DY, RSTD, DX, DW_PARTIAL, stride_x, stride_dy, stride_dx, N,
                BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(DY + row * stride_dy + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(W + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.load(RSTD + row)
    wdy = w * dy
    c = tl.sum(wdy * x, axis=0) / N
    dx = rstd * wdy - x * (rstd * rstd * rstd) * c
    tl.store(DX + row * stride_dx + cols, dx.to(DX.dtype.element_ty), mask=mask)
    tl.store(DW_PARTIAL + row * N + cols, dy * x * rstd, mask=mask)


@triton.jit
def _sum_rows(P, OUT, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for m0 in range(0, M, BLOCK_M):
        rows = m0 + tl.arange(0, BLOCK_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        acc += tl.sum(tl.load(P + rows[:, None] * N + cols[None, :], mask=mask, other=0.0), axis=0)
    tl.store(OUT + cols, acc.to(OUT.dtype.element_ty), mask=cols < N)


def _block(n: int) -> int:
    block = triton.next_power_of_2(n)
    if block > 65536:
        raise RuntimeError(f"hidden size {n} does not fit one block")
    return block


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(x: torch.Tensor, weight: torch.Tensor, eps: float) -> Tuple[torch.Tensor, torch.Tensor]:
        shape = x.shape
        x2 = x.reshape(-1, shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        M, N = x2.shape
        y = torch.empty_like(x2)
        rstd = torch.empty(M, device=x.device, dtype=torch.float32)
        _rms_fwd[(M,)](x2, weight, y, rstd, x2.stride(0), y.stride(0), N, eps,
                       BLOCK_N=_block(N), num_warps=4)
        return y.view(shape), rstd

    @staticmethod
    def setup_context(ctx: Any, inputs: Tuple[Any, ...], output: Tuple[torch.Tensor, torch.Tensor]) -> None:
        x, weight, eps = inputs
        _, rstd = output
        ctx.mark_non_differentiable(rstd)
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x, weight, rstd)

    @staticmethod
    def backward(ctx: Any, dy: Optional[torch.Tensor], _drstd: Optional[torch.Tensor]):
        if dy is None:
            return None, None, None
        x, weight, rstd = ctx.saved_tensors
        N = x.shape[-1]
        x2 = x.reshape(-1, N).contiguous()
        dy2 = dy.reshape(-1, N).contiguous()
        M = x2.shape[0]
        dx = torch.empty_like(x2)
        dw_partial = torch.empty((M, N), device=x.device, dtype=torch.float32)
        _rms_bwd_dx[(M,)](x2, weight, dy2, rstd, dx, dw_partial, x2.stride(0), dy2.stride(0),
                          dx.stride(0), N, BLOCK_N=_block(N))
        dw = None
        if ctx.needs_input_grad[1]:
            dw = torch.empty_like(weight)
            _sum_rows[(triton.cdiv(N, 128),)](dw_partial, dw, M, N, BLOCK_M=32, BLOCK_N=128)
        dx = dx.view(x.shape) if ctx.needs_input_grad[0] else None
        return dx, dw, None


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = RMSNormFunction.apply(x, self.weight, self.eps)
        return y

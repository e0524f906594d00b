# RMSNorm in the fla/Liger style: autotune over warps keyed on N, a heuristic EVEN_N flag that
# drops the mask, rows strided by x.stride(-2) on a 2-D view of (B, T, H), fp32 accumulation,
# rstd written out for a backward
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4, 8, 16)], key=["N"])
@triton.heuristics({"EVEN_N": lambda args: args["N"] == args["BLOCK_N"]})
@triton.jit
def rms_norm_fwd_kernel(X, Y, W, RSTD, stride_x_row, stride_y_row, N, eps,
                        BLOCK_N: tl.constexpr, EVEN_N: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride_x_row
    Y += row * stride_y_row
    cols = tl.arange(0, BLOCK_N)
    if EVEN_N:
        x = tl.load(X + cols).to(tl.float32)
        w = tl.load(W + cols).to(tl.float32)
    else:
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=cols < N, other=0.0).to(tl.float32)
    var = tl.sum(x * x, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(RSTD + row, rstd)
    y = x * rstd * w
    if EVEN_N:
        tl.store(Y + cols, y.to(Y.dtype.element_ty))
    else:
        tl.store(Y + cols, y.to(Y.dtype.element_ty), mask=cols < N)


def rms_norm_fwd(x: torch.Tensor, weight: torch.Tensor, eps: float, out: Optional[torch.Tensor] = None):
    x_shape_og = x.shape
    x = x.reshape(-1, x.shape[-1])
    if x.stride(-1) != 1:
        x = x.contiguous()
    M, N = x.shape
    y = torch.empty_like(x) if out is None else out
    rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
    MAX_FUSED_SIZE = 65536 // x.element_size()
    BLOCK_N = min(MAX_FUSED_SIZE, triton.next_power_of_2(N))
    if N > BLOCK_N:
        raise RuntimeError("This layer norm doesn't support feature dim >= 64KB.")
    rms_norm_fwd_kernel[(M,)](x, y, weight, rstd, x.stride(0), y.stride(0), N, eps, BLOCK_N=BLOCK_N)
    return y.reshape(x_shape_og), rstd


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y, _ = rms_norm_fwd(x, self.weight, self.eps)
        return y

# honest: a general layer-norm launcher in vLLM/flash-attn style: optional residual and bias passed as None pointers guarded by HAS_RESIDUAL/HAS_BIAS constexpr flags, whole row per program, mean and rstd in fp32. problem: norm/layernorm
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_1pass(
    X, Y, W, B, RESIDUAL,
    stride_x_row, stride_y_row, stride_res_row,
    N, eps,
    HAS_RESIDUAL: tl.constexpr, HAS_BIAS: tl.constexpr, BLOCK_N: tl.constexpr,
):
    row = tl.program_id(0)
    X += row * stride_x_row
    Y += row * stride_y_row
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    if HAS_RESIDUAL:
        RESIDUAL += row * stride_res_row
        x += tl.load(RESIDUAL + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xbar = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xbar * xbar, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    y = xbar * rstd * w
    if HAS_BIAS:
        y += tl.load(B + cols, mask=mask).to(tl.float32)
    tl.store(Y + cols, y, mask=mask)


def layer_norm_fn(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor], eps: float,
                  residual: Optional[torch.Tensor] = None) -> torch.Tensor:
    x = x.reshape(-1, x.shape[-1])
    if x.stride(-1) != 1:
        x = x.contiguous()
    M, N = x.shape
    y = torch.empty_like(x)
    BLOCK_N = triton.next_power_of_2(N)
    _layer_norm_fwd_1pass[(M,)](
        x, y, weight, bias, residual,
        x.stride(0), y.stride(0), residual.stride(0) if residual is not None else 0,
        N, eps,
        HAS_RESIDUAL=residual is not None, HAS_BIAS=bias is not None,
        BLOCK_N=BLOCK_N, num_warps=min(max(BLOCK_N // 256, 1), 8),
    )
    return y


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = layer_norm_fn(x, self.norm.weight, self.norm.bias, self.norm.eps)
        return y.view(x.shape)

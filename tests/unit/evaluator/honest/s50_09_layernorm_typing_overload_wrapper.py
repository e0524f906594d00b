# honest: LayerNorm whose public wrapper is declared with @typing.overload signatures (a Tensor-only call and one with an `out=` buffer) before the implementation, as typed library code does; one program per row, two passes over column chunks (mean, then centred variance) in float32, weight and bias from the module's nn.LayerNorm. problem: norm/layernorm
from typing import Optional, overload

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd(x_ptr, w_ptr, b_ptr, y_ptr, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    x_ptr += row * stride
    y_ptr += row * stride
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
        d = tl.where(cols < N, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        m = cols < N
        x = tl.load(x_ptr + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=m)
        b = tl.load(b_ptr + cols, mask=m)
        tl.store(y_ptr + cols, (x - mean) * rstd * w + b, mask=m)


@overload
def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor: ...


@overload
def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float,
               out: torch.Tensor) -> torch.Tensor: ...


def layer_norm(x, weight, bias, eps, out: Optional[torch.Tensor] = None):
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    if out is None:
        out = torch.empty_like(x2)
    M, N = x2.shape
    block = min(1024, triton.next_power_of_2(N))
    _layer_norm_fwd[(M,)](x2, weight, bias, out, x2.stride(0), N, eps, BLOCK_N=block, num_warps=4)
    return out.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # the reference's affine transform, drawn as it draws it
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm(x, self.norm.weight, self.norm.bias, self.norm.eps)

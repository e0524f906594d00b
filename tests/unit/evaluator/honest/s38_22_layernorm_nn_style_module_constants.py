"""A drop-in LayerNorm module written the way torch.nn writes its own (`__constants__`,
reset_parameters, extra_repr), whose forward is one Triton kernel."""
from typing import List, Tuple, Union

import torch
import torch.nn as nn
import triton
import triton.language as tl

_shape_t = Union[int, List[int], Tuple[int, ...]]


@triton.jit
def _layer_norm_fwd(X, Y, W, B, stride, N, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < N
    x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    diff = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(diff * diff, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Y + cols, diff * rstd * w + b, mask=mask)


class TritonLayerNorm(nn.Module):
    __constants__ = ["normalized_shape", "eps", "elementwise_affine"]

    def __init__(self, normalized_shape: _shape_t, eps: float = 1e-5) -> None:
        super().__init__()
        if isinstance(normalized_shape, int):
            normalized_shape = (normalized_shape,)
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = True
        self.weight = nn.Parameter(torch.empty(self.normalized_shape))
        self.bias = nn.Parameter(torch.empty(self.normalized_shape))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        nn.init.ones_(self.weight)
        nn.init.zeros_(self.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N = self.weight.numel()
        x2 = x.reshape(-1, N).contiguous()
        y = torch.empty_like(x2)
        BLOCK_SIZE = triton.next_power_of_2(N)
        _layer_norm_fwd[(x2.shape[0],)](x2, y, self.weight, self.bias, x2.stride(0), N, self.eps,
                                        BLOCK_SIZE=BLOCK_SIZE, num_warps=min(max(BLOCK_SIZE // 256, 1), 8))
        return y.view_as(x)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}"


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = TritonLayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(x)

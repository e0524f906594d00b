"""LayerNorm forward (one row per program) with its launch settings validated by a
frozen dataclass's __post_init__, and a one-time warning (module flag + global) when
the row is too long for a single block and the looped kernel is used."""
import warnings
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import triton
import triton.language as tl

_WARNED_LOOPED = False
MAX_SINGLE_BLOCK = 8192


@dataclass(frozen=True)
class LaunchConfig:
    block_n: int
    num_warps: int = 4
    eps: float = 1e-5
    tags: tuple = field(default=())

    def __post_init__(self):
        if self.block_n & (self.block_n - 1):
            raise ValueError(f"block_n must be a power of two, got {self.block_n}")
        if self.num_warps not in (1, 2, 4, 8, 16, 32):
            raise ValueError(f"num_warps must be a power of two <= 32, got {self.num_warps}")


@triton.jit
def _ln_fwd_single(X, Y, W, B, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(W + cols, mask=mask)
    b = tl.load(B + cols, mask=mask)
    tl.store(Y + row * stride + cols, xc * rstd * w + b, mask=mask)


@triton.jit
def _ln_fwd_looped(X, Y, W, B, stride, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    X += row * stride
    Y += row * stride
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        acc += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.0)
        acc += x * x
    rstd = tl.rsqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = cols < N
        x = tl.load(X + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=mask)


def layer_norm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, eps: float) -> torch.Tensor:
    global _WARNED_LOOPED
    x2 = x.reshape(-1, x.shape[-1]).contiguous()
    M, N = x2.shape
    y = torch.empty_like(x2)
    block = triton.next_power_of_2(N)
    if block <= MAX_SINGLE_BLOCK:
        cfg = LaunchConfig(block_n=block, num_warps=min(max(block // 256, 1), 16), eps=eps)
        _ln_fwd_single[(M,)](x2, y, weight, bias, x2.stride(0), N, cfg.eps,
                             BLOCK_N=cfg.block_n, num_warps=cfg.num_warps)
    else:
        if not _WARNED_LOOPED:
            warnings.warn(f"layer_norm: N={N} exceeds one block; using the looped kernel",
                          RuntimeWarning, stacklevel=2)
            _WARNED_LOOPED = True
        cfg = LaunchConfig(block_n=1024, num_warps=8, eps=eps)
        _ln_fwd_looped[(M,)](x2, y, weight, bias, x2.stride(0), N, cfg.eps,
                             BLOCK_N=cfg.block_n, num_warps=cfg.num_warps)
    return y.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # same affine init as the reference
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return layer_norm(x, self.norm.weight, self.norm.bias, self.norm.eps)

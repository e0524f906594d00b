# honest: RMSNorm launch settings in a frozen dataclass whose __post_init__ derives the block size and warp count from the hidden size with `object.__setattr__(self, "block", ...)` (the documented way to set a derived field of a frozen dataclass), cached per hidden size with functools.lru_cache; one program per row, the row held whole in float32. problem: norm/rmsnorm
import dataclasses
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclasses.dataclass(frozen=True)
class RowLaunch:
    hidden: int
    block: int = 0
    num_warps: int = 4

    def __post_init__(self):
        block = triton.next_power_of_2(self.hidden)
        object.__setattr__(self, "block", block)
        object.__setattr__(self, "num_warps", max(1, min(16, block // 256)))


@functools.lru_cache(maxsize=32)
def _launch_for(hidden: int) -> RowLaunch:
    return RowLaunch(hidden)


@triton.jit
def _rms_norm_row(x_ptr, w_ptr, y_ptr, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2)
        cfg = _launch_for(shape[-1])
        _rms_norm_row[(x2.shape[0],)](x2, self.weight, y, x2.stride(0), shape[-1], self.eps,
                                      BLOCK=cfg.block, num_warps=cfg.num_warps)
        return y.view(shape)

# honest: half-precision axpby computed in float32 and stored as float16, a frozen dataclass for launch settings, Optional[torch.Tensor] out= buffer made with new_empty. problem: elementwise/axpby_fp16
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchConfig:
    block: int = 2048
    num_warps: int = 8


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, alpha, beta, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(tl.float16), mask=mask)


def axpby(alpha: float, x: torch.Tensor, beta: float, y: torch.Tensor,
          out: Optional[torch.Tensor] = None, cfg: LaunchConfig = LaunchConfig()) -> torch.Tensor:
    assert x.shape == y.shape and x.dtype == y.dtype == torch.float16
    x, y = x.contiguous(), y.contiguous()
    if out is None:
        out = x.new_empty(x.shape)
    n = x.numel()
    axpby_kernel[(triton.cdiv(n, cfg.block),)](x, y, out, alpha, beta, n, BLOCK=cfg.block,
                                               num_warps=cfg.num_warps)
    return out


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super(ModelNew, self).__init__()
        self.alpha = float(alpha)
        self.beta = float(beta)
        self.cfg = LaunchConfig()

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return axpby(self.alpha, x, self.beta, y, cfg=self.cfg)

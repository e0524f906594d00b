# honest: MSE with a typing.NamedTuple launch config, per-block partial sums of squared differences atomically added into an fp32 scalar that already carries the 1/N factor (honest round, session 21). problem: loss/mse. policy: strict
from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class LaunchCfg(NamedTuple):
    block: int
    num_warps: int


@triton.jit
def _sq_diff_sum_kernel(p_ptr, t_ptr, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    p = tl.load(p_ptr + offs, mask=m, other=0.0)
    t = tl.load(t_ptr + offs, mask=m, other=0.0)
    d = p - t
    tl.atomic_add(out_ptr, tl.sum(d * d, axis=0) * inv_n)


class ModelNew(nn.Module):
    CFG = LaunchCfg(block=2048, num_warps=8)

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        out = torch.zeros(1, device=p.device, dtype=torch.float32)
        cfg = self.CFG
        _sq_diff_sum_kernel[(triton.cdiv(n, cfg.block),)](p, t, out, n, 1.0 / n, BLOCK=cfg.block,
                                                           num_warps=cfg.num_warps)
        return out.reshape(())

# honest: KL divergence (reduction="batchmean") with the reduction chosen from an @enum.unique IntEnum handed to the kernel as a tl.constexpr (`REDUCTION=Reduction.BATCHMEAN.value`), xlogy-style zero handling (`tl.where(t > 0, t * (log t - p), 0)`), each program's partial divided by the batch size and added to a float32 scalar with tl.atomic_add. problem: loss/kl_div_close
import enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


@enum.unique
class Reduction(enum.IntEnum):
    SUM = 0
    MEAN = 1
    BATCHMEAN = 2


@triton.jit
def _kl_div_reduce(p_ptr, t_ptr, out_ptr, n, batch, REDUCTION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    safe_t = tl.where(t > 0, t, 1.0)
    term = tl.where(t > 0, t * (tl.log(safe_t) - p), 0.0)
    part = tl.sum(term, axis=0)
    if REDUCTION == 2:
        part = part / batch
    elif REDUCTION == 1:
        part = part / n
    tl.atomic_add(out_ptr, part)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.reduction = Reduction.BATCHMEAN

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        BLOCK = 4096
        _kl_div_reduce[(triton.cdiv(n, BLOCK),)](p, t, out, n, p.shape[0],
                                                 REDUCTION=self.reduction.value, BLOCK=BLOCK)
        return out

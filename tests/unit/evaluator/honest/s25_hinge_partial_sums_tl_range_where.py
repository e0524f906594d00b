# honest: a two-stage mean (per-program partial sums over a tl.range loop, then torch.sum over the few partials), tl.where for the hinge, a fixed persistent grid of 64 programs striding over the input. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_PROGRAMS = 64


@triton.jit
def hinge_partial_kernel(p_ptr, t_ptr, partial_ptr, n, BLOCK: tl.constexpr,
                         NPROG: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in tl.range(pid * BLOCK, n, NPROG * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        p = tl.load(p_ptr + offs, mask=mask, other=0.0)
        t = tl.load(t_ptr + offs, mask=mask, other=0.0)
        h = 1.0 - p * t
        acc += tl.where(mask & (h > 0.0), h, 0.0)
    tl.store(partial_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.reshape(-1)
        t = targets.reshape(-1)
        n = p.numel()
        partials = torch.empty(NUM_PROGRAMS, device=p.device, dtype=torch.float32)
        hinge_partial_kernel[(NUM_PROGRAMS,)](p, t, partials, n, BLOCK=1024, NPROG=NUM_PROGRAMS)
        return (partials.sum() / n).to(predictions.dtype)

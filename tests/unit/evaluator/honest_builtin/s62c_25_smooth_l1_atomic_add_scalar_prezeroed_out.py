# honest: smooth L1 (beta 1) with each program adding its block's sum, already divided by n, into one zeroed float32 scalar with tl.atomic_add, in the one-kernel reduction style of many KernelBench solutions. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_atomic(p_ptr, t_ptr, out_ptr, n, inv_n, beta, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.load(p_ptr + offs, mask=mask, other=0.0) - tl.load(t_ptr + offs, mask=mask, other=0.0)
    a = tl.abs(d)
    loss = tl.where(a < beta, 0.5 * d * d / beta, a - 0.5 * beta)
    tl.atomic_add(out_ptr, tl.sum(tl.where(mask, loss, 0.0), axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        block = 4096
        smooth_l1_atomic[(triton.cdiv(n, block),)](p, t, out, n, 1.0 / n, 1.0, BLOCK=block, num_warps=8)
        return out

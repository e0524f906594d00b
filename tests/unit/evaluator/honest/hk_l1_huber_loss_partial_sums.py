# An honest ModelNew for KernelBench level1/96_HuberLoss; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_partial_kernel(p_ptr, t_ptr, partial_ptr, n, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    d = tl.load(p_ptr + offs, mask=mask, other=0.0) - tl.load(t_ptr + offs, mask=mask, other=0.0)
    ad = tl.abs(d)
    loss = tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
    loss = tl.where(mask, loss, 0.0)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def finish_mean_kernel(partial_ptr, out_ptr, num_partials, inv_n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < num_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.beta = 1.0

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        num_blocks = triton.cdiv(n, BLOCK)
        partials = torch.empty(num_blocks, device=p.device, dtype=torch.float32)
        smooth_l1_partial_kernel[(num_blocks,)](p, t, partials, n, self.beta, BLOCK=BLOCK)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        finish_mean_kernel[(1,)](partials, out, num_blocks, 1.0 / n, BLOCK=256)
        return out

# honest: smooth L1 (beta 1) with a 1-D grid of triton.cdiv(n, BLOCK) programs each storing one fp32 block sum, then a second one-program Triton kernel looping over the partials and dividing by n. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _huber(d, beta):
    ad = tl.abs(d)
    return tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)


@triton.jit
def smooth_l1_block_kernel(p_ptr, t_ptr, part_ptr, n, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    loss = tl.where(mask, _huber(p - t, beta), 0.0)
    tl.store(part_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def sum_partials_kernel(part_ptr, out_ptr, num_parts, n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < num_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.beta = 1.0

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        num_parts = triton.cdiv(n, BLOCK)
        partials = torch.empty(num_parts, device=p.device, dtype=torch.float32)
        smooth_l1_block_kernel[(num_parts,)](p, t, partials, n, self.beta, BLOCK=BLOCK)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        sum_partials_kernel[(1,)](partials, out, num_parts, n, BLOCK=256)
        return out

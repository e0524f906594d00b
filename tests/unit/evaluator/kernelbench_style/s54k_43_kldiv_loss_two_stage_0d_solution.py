# An honest Triton ModelNew for KernelBench level1/98_KLDivLoss: a two-stage reduction all in Triton: stage 1 grid-strides over the flattened tensors into per-program fp32 partials, stage 2 (one program) sums the partials and divides by the batch, storing into a 0-d torch.empty(()) output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_partial_kernel(p_ptr, t_ptr, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(pid * BLOCK, n, nprog * BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        p = tl.load(p_ptr + offs, mask=m, other=1.0)
        t = tl.load(t_ptr + offs, mask=m, other=0.0)
        acc += tl.where(t > 0, t * (tl.log(t) - tl.log(p)), 0.0)
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def kl_finish_kernel(part_ptr, out_ptr, n_parts, batch, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    v = tl.load(part_ptr + offs, mask=offs < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(v, axis=0) / batch)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        BLOCK = 1024
        n_parts = min(256, triton.cdiv(n, BLOCK))
        parts = torch.empty(n_parts, device=p.device, dtype=torch.float32)
        kl_partial_kernel[(n_parts,)](p, t, parts, n, BLOCK=BLOCK)
        out = torch.empty((), device=p.device, dtype=torch.float32)
        kl_finish_kernel[(1,)](parts, out, n_parts, predictions.shape[0], BLOCK=triton.next_power_of_2(n_parts))
        return out

# An honest Triton ModelNew for l1_mse_loss.py (KernelBench level1/94_MSELoss), in a style people use.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mse_kernel(p_ptr, t_ptr, out_ptr, n_elements, inv_n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    p = tl.load(p_ptr + offs, mask=mask, other=0.0)
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    d = p - t
    partial = tl.sum(d * d, axis=0)
    tl.atomic_add(out_ptr, partial * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        p = predictions.contiguous()
        t = targets.contiguous()
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        BLOCK_SIZE = 2048
        mse_kernel[(triton.cdiv(n, BLOCK_SIZE),)](p, t, out, n, 1.0 / n, BLOCK_SIZE=BLOCK_SIZE)
        return out

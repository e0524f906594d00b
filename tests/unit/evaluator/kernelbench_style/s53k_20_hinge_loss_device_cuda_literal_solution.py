# An honest Triton ModelNew for KernelBench level1/100_HingeLoss (problem s53k_07_hinge_loss): buffers allocated with a literal device="cuda" and .cuda() on the inputs (as many answers write), one kernel tl.atomic_add-ing block sums into a zeroed scalar, the mean taken by dividing on the host side with torch, torch.cuda.synchronize() before returning.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_sum_kernel(pred_ptr, targ_ptr, out_ptr, n_elements, n_cols, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    p = tl.load(pred_ptr + offs, mask=mask, other=0.0)
    t = tl.load(targ_ptr + (offs % n_cols), mask=mask, other=0.0)
    loss = tl.where(mask, tl.maximum(1.0 - p * t, 0.0), 0.0)
    tl.atomic_add(out_ptr, tl.sum(loss, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.cuda().contiguous()
        targets = targets.cuda().contiguous()
        n = predictions.numel()
        total = torch.zeros(1, device="cuda", dtype=torch.float32)
        BLOCK_SIZE = 2048
        hinge_sum_kernel[(triton.cdiv(n, BLOCK_SIZE),)](predictions, targets, total, n, predictions.shape[-1],
                                                         BLOCK_SIZE=BLOCK_SIZE)
        torch.cuda.synchronize()
        return (total / n).squeeze(0)

# An honest Triton ModelNew for l1_huber_loss.py (KernelBench level1/96_HuberLoss): smooth L1 (beta=1) in two stages, per-block partial sums into a buffer allocated on torch.device(torch.cuda.current_device()), then one program summing the partials and dividing by the count into a 0-dim output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def huber_partial_kernel(pred_ptr, tgt_ptr, partial_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    p = tl.load(pred_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(tgt_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    diff = p - t
    ad = tl.abs(diff)
    loss = tl.where(ad < 1.0, 0.5 * diff * diff, ad - 0.5)
    loss = tl.where(mask, loss, 0.0)
    tl.store(partial_ptr + pid, tl.sum(loss, axis=0))


@triton.jit
def huber_finalize_kernel(partial_ptr, out_ptr, n_partials, n_elements, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_partials, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(partial_ptr + offs, mask=offs < n_partials, other=0.0)
    total = tl.sum(acc, axis=0)
    tl.store(out_ptr, total / n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        n = predictions.numel()
        BLOCK_SIZE = 1024
        n_blocks = triton.cdiv(n, BLOCK_SIZE)
        device = torch.device(torch.cuda.current_device())
        partials = torch.empty(n_blocks, dtype=torch.float32, device=device)
        out = torch.empty((), dtype=torch.float32, device=device)
        huber_partial_kernel[(n_blocks,)](predictions, targets, partials, n, BLOCK_SIZE=BLOCK_SIZE)
        huber_finalize_kernel[(1,)](partials, out, n_blocks, n, BLOCK_SIZE=1024)
        return out

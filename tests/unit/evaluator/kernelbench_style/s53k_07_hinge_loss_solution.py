# An honest Triton ModelNew for KernelBench level1/100_HingeLoss: the (B,) targets broadcast over the last dimension as torch does (index offs % N), per-block partial sums in a buffer, a second one-program kernel summing them and dividing by numel into a 0-d output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_partial_kernel(pred_ptr, targ_ptr, partial_ptr, n_elements, n_last, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    p = tl.load(pred_ptr + offs, mask=mask, other=0.0)
    t = tl.load(targ_ptr + offs % n_last, mask=mask, other=0.0)
    h = tl.maximum(1.0 - p * t, 0.0)
    h = tl.where(mask, h, 0.0)
    tl.store(partial_ptr + pid, tl.sum(h, axis=0))


@triton.jit
def finalize_mean_kernel(partial_ptr, out_ptr, n_partials, n_elements, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_partials, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(partial_ptr + offs, mask=offs < n_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n_elements)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        n_last = predictions.shape[-1]
        assert targets.numel() == n_last, "targets broadcast over the last dimension"
        n = predictions.numel()
        BLOCK_SIZE = 1024
        n_blocks = triton.cdiv(n, BLOCK_SIZE)
        partial = torch.empty(n_blocks, device=predictions.device, dtype=torch.float32)
        hinge_partial_kernel[(n_blocks,)](predictions, targets, partial, n, n_last, BLOCK_SIZE=BLOCK_SIZE)
        out = torch.empty((), device=predictions.device, dtype=torch.float32)
        finalize_mean_kernel[(1,)](partial, out, n_blocks, n, BLOCK_SIZE=1024)
        return out

# honest: KernelBench level1/100_HingeLoss answer style: a flat 1D grid, clamp(1 - p * t, min=0) per element, block sums atomically added to one float, the mean taken by a division on the host. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hinge_kernel(p_ptr, t_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    p = tl.load(p_ptr + offsets, mask=mask, other=0.0)
    t = tl.load(t_ptr + offsets, mask=mask, other=0.0)
    loss = tl.maximum(1.0 - p * t, 0.0)
    loss = tl.where(mask, loss, 0.0)
    tl.atomic_add(out_ptr, tl.sum(loss, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.expand_as(predictions).contiguous()
        n_elements = predictions.numel()
        out = torch.zeros(1, device=predictions.device, dtype=torch.float32)
        BLOCK_SIZE = 1024
        grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
        hinge_kernel[grid](predictions, targets, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
        return out[0] / n_elements

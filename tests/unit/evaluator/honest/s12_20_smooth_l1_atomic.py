import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK: tl.constexpr = 1024


@triton.jit
def smooth_l1_kernel(pred_ptr, target_ptr, out_ptr, n_elements, beta, inv_n,
                     BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    p = tl.load(pred_ptr + offsets, mask=mask, other=0.0)
    t = tl.load(target_ptr + offsets, mask=mask, other=0.0)
    diff = tl.abs(p - t)
    loss = tl.where(diff < beta, 0.5 * diff * diff / beta, diff - 0.5 * beta)
    loss = tl.where(mask, loss, 0.0)
    partial = tl.sum(loss, axis=0) * inv_n
    tl.atomic_add(out_ptr, partial)


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0):
        super().__init__()
        self.beta = beta

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        targets = targets.contiguous()
        n = predictions.numel()
        out = torch.zeros(1, device=predictions.device, dtype=torch.float32)
        grid = (triton.cdiv(n, BLOCK),)
        smooth_l1_kernel[grid](predictions, targets, out, n, self.beta, 1.0 / n, BLOCK_SIZE=BLOCK)
        return out.squeeze(0)

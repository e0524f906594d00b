# honest: smooth L1 (beta 1) as a flat 1D kernel: tl.where(|d| < beta, 0.5 d^2 / beta, |d| - 0.5 beta), each block's sum times 1/n atomically added into a zeroed fp32 scalar. problem: loss/smooth_l1
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def smooth_l1_kernel(pred_ptr, tgt_ptr, out_ptr, n_elements, beta, inv_n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    p = tl.load(pred_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(tgt_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    ad = tl.abs(d)
    loss = tl.where(ad < beta, 0.5 * d * d / beta, ad - 0.5 * beta)
    loss = tl.where(mask, loss, 0.0)
    tl.atomic_add(out_ptr, tl.sum(loss, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        smooth_l1_kernel[grid](p, t, out, n, 1.0, 1.0 / n, BLOCK_SIZE=4096)
        return out.to(predictions.dtype)

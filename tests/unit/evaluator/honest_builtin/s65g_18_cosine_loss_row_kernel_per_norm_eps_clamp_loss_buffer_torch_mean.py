# honest: cosine-embedding-style loss: one program per row accumulates p.t, |p|^2 and |t|^2 in fp32 over column chunks, writes 1 - dot / (max(|p|, eps) max(|t|, eps)) per row, and torch takes the mean of the row losses. problem: loss/cosine_loss
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cos_loss_rows(p_ptr, t_ptr, loss_ptr, D, stride_p, stride_t, eps, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    p_row = p_ptr + row.to(tl.int64) * stride_p
    t_row = t_ptr + row.to(tl.int64) * stride_t
    dot = tl.zeros([BLOCK_D], tl.float32)
    pp = tl.zeros([BLOCK_D], tl.float32)
    tt = tl.zeros([BLOCK_D], tl.float32)
    for d0 in tl.range(0, D, BLOCK_D):
        offs = d0 + tl.arange(0, BLOCK_D)
        m = offs < D
        p = tl.load(p_row + offs, mask=m, other=0.0).to(tl.float32)
        t = tl.load(t_row + offs, mask=m, other=0.0).to(tl.float32)
        dot += p * t
        pp += p * p
        tt += t * t
    pn = tl.maximum(tl.sqrt(tl.sum(pp, 0)), eps)
    tn = tl.maximum(tl.sqrt(tl.sum(tt, 0)), eps)
    tl.store(loss_ptr + row, 1.0 - tl.sum(dot, 0) / (pn * tn))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        B, D = p.shape
        losses = torch.empty(B, device=p.device, dtype=torch.float32)
        cos_loss_rows[(B,)](p, t, losses, D, p.stride(0), t.stride(0), 1e-8, BLOCK_D=1024)
        return losses.mean()

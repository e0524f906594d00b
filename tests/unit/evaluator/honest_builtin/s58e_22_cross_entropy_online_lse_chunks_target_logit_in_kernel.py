# honest: cross entropy with one program per row computing an online logsumexp over class chunks and loading the target's logit by its int64 index in-kernel, writing a per-row loss vector; the host takes .mean() of the (batch,) losses. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ce_rows_kernel(logits_ptr, target_ptr, loss_ptr, n_classes, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = logits_ptr + row.to(tl.int64) * stride_row
    m = float("-inf")
    s = 0.0
    for start in range(0, n_classes, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_classes, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, 0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), 0)
        m = m_new
    t = tl.load(target_ptr + row)
    x_t = tl.load(base + t).to(tl.float32)
    tl.store(loss_ptr + row, m + tl.log(s) - x_t)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        logits = logits.contiguous()
        B, C = logits.shape
        losses = torch.empty(B, device=logits.device, dtype=torch.float32)
        ce_rows_kernel[(B,)](logits, targets, losses, C, logits.stride(0), BLOCK=2048, num_warps=8)
        return losses.mean()

# honest: Liger-style cross entropy with ignore_index, the non-ignored targets counted by a Triton kernel and read with .item() for the mean's divisor. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl

IGNORE_INDEX = -100


@triton.jit
def count_valid_kernel(target_ptr, count_ptr, n, ignore_index, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    t = tl.load(target_ptr + offs, mask=offs < n, other=ignore_index)
    tl.atomic_add(count_ptr, tl.sum((t != ignore_index).to(tl.int32), axis=0))


@triton.jit
def ce_rows_kernel(x_ptr, target_ptr, loss_ptr, n_cols, ignore_index, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * n_cols
    target = tl.load(target_ptr + row)
    m = float("-inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    picked = tl.load(base + target, mask=target != ignore_index, other=0.0).to(tl.float32)
    loss = tl.where(target != ignore_index, (m + tl.log(d) - picked) * scale, 0.0)
    tl.store(loss_ptr + row, loss)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits, targets = logits.contiguous(), targets.contiguous()
        rows, n_cols = logits.shape
        count = torch.zeros(1, dtype=torch.int32, device=logits.device)
        count_valid_kernel[(triton.cdiv(rows, 1024),)](targets, count, rows, IGNORE_INDEX, BLOCK=1024)
        n_valid = count.item()
        scale = 1.0 / max(n_valid, 1)
        loss = torch.empty(rows, dtype=torch.float32, device=logits.device)
        ce_rows_kernel[(rows,)](logits, targets, loss, n_cols, IGNORE_INDEX, scale, BLOCK=1024)
        return loss.sum().to(logits.dtype)

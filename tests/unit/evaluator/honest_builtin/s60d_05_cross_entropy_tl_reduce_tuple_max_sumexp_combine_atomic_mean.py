# honest: cross entropy with one program per row, each block's (max, sum of exp) merged by tl.reduce over a tuple with a custom @triton.jit combine, the target logit loaded by index, and the mean folded into an atomic_add of loss / batch into a zeroed scalar. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _lse_combine(m_a, s_a, m_b, s_b):
    m = tl.maximum(m_a, m_b)
    m_safe = tl.where(m == -float("inf"), 0.0, m)
    return m, s_a * tl.exp(m_a - m_safe) + s_b * tl.exp(m_b - m_safe)


@triton.jit
def ce_fwd_kernel(logits_ptr, target_ptr, loss_ptr, n_cols, stride_row, inv_batch,
                  BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    m_run = -float("inf")
    s_run = 0.0
    for off in range(0, n_cols, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(base + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        ones = tl.where(cols < n_cols, 1.0, 0.0)
        m_blk, s_blk = tl.reduce((x, ones), 0, _lse_combine)
        m_run, s_run = _lse_combine(m_run, s_run, m_blk, s_blk)
    target = tl.load(target_ptr + row)
    x_t = tl.load(base + target).to(tl.float32)
    loss = m_run + tl.log(s_run) - x_t
    tl.atomic_add(loss_ptr, loss * inv_batch)


class ModelNew(nn.Module):
    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        logits = logits.contiguous()
        batch, n_cols = logits.shape
        out = torch.zeros((), device=logits.device, dtype=torch.float32)
        block = min(4096, triton.next_power_of_2(n_cols))
        ce_fwd_kernel[(batch,)](logits, targets, out, n_cols, logits.stride(0), 1.0 / batch,
                                BLOCK_SIZE=block, num_warps=8)
        return out

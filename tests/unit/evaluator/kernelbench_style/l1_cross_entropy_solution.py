# An honest Triton ModelNew for l1_cross_entropy.py (KernelBench level1/95_CrossEntropyLoss): a block of rows per program, an online (max, sum-exp) logsumexp over class chunks, the target logit gathered by its int64 index, each block's loss sum / batch added to a 0-dim output with tl.atomic_add; DEVICE = torch.device("cuda:0") at module level.
import torch
import torch.nn as nn
import triton
import triton.language as tl

DEVICE = torch.device("cuda:0")


@triton.jit
def cross_entropy_kernel(
    logits_ptr, targets_ptr, loss_ptr,
    n_rows, n_cols, stride_row, inv_n_rows,
    BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr,
):
    pid = tl.program_id(0)
    rows = pid * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    row_mask = rows < n_rows
    row_base = logits_ptr + rows.to(tl.int64)[:, None] * stride_row

    m = tl.full([BLOCK_ROWS], -float("inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK_ROWS], dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK_COLS):
        cols = c0 + tl.arange(0, BLOCK_COLS)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(row_base + cols[None, :], mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=1))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new[:, None]), axis=1)
        m = m_new

    tgt = tl.load(targets_ptr + rows, mask=row_mask, other=0)
    x_t = tl.load(logits_ptr + rows.to(tl.int64) * stride_row + tgt, mask=row_mask, other=0.0).to(tl.float32)
    loss = tl.where(row_mask, m + tl.log(s) - x_t, 0.0)
    tl.atomic_add(loss_ptr, tl.sum(loss, axis=0) * inv_n_rows)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, predictions, targets):
        predictions = predictions.contiguous()
        n_rows, n_cols = predictions.shape
        loss = torch.zeros((), dtype=torch.float32, device=DEVICE)
        BLOCK_ROWS = 16
        BLOCK_COLS = min(1024, triton.next_power_of_2(n_cols))
        grid = (triton.cdiv(n_rows, BLOCK_ROWS),)
        cross_entropy_kernel[grid](
            predictions, targets, loss,
            n_rows, n_cols, predictions.stride(0), 1.0 / n_rows,
            BLOCK_ROWS=BLOCK_ROWS, BLOCK_COLS=BLOCK_COLS,
        )
        return loss

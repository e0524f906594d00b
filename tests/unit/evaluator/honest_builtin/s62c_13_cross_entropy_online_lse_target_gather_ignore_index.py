# honest: cross entropy with one program per row, an online log-sum-exp over column chunks, the target logit read by a scalar load at its int64 index, ignore_index rows skipped and the mean taken over counted rows, in Liger-Kernel's style. problem: loss/cross_entropy. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ce_rows(X_ptr, X_stride, Y_ptr, loss_ptr, n_cols, ignore_index, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y = tl.load(Y_ptr + row)
    X_row = X_ptr + row * X_stride
    if y == ignore_index:
        tl.store(loss_ptr + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    x_y = tl.load(X_row + y).to(tl.float32)
    tl.store(loss_ptr + row, m + tl.log(d) - x_y)


@triton.jit
def _mean_counted(loss_ptr, Y_ptr, out_ptr, n_rows, ignore_index, BLOCK: tl.constexpr):
    total = tl.zeros((BLOCK,), tl.float32)
    count = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_rows, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        inb = idx < n_rows
        total += tl.load(loss_ptr + idx, mask=inb, other=0.0)
        y = tl.load(Y_ptr + idx, mask=inb, other=ignore_index)
        count += tl.where(y != ignore_index, 1.0, 0.0)
    tl.store(out_ptr, tl.sum(total, axis=0) / tl.sum(count, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits, targets):
        logits = logits.contiguous()
        targets = targets.contiguous()
        n_rows, n_cols = logits.shape
        block = min(65536 // 2, triton.next_power_of_2(n_cols))
        per_row = torch.empty(n_rows, dtype=torch.float32, device=logits.device)
        _ce_rows[(n_rows,)](logits, logits.stride(0), targets, per_row, n_cols, -100,
                            BLOCK_SIZE=block, num_warps=32 if block >= 32768 else 8)
        out = torch.empty((), dtype=torch.float32, device=logits.device)
        _mean_counted[(1,)](per_row, targets, out, n_rows, -100, BLOCK=1024)
        return out.to(logits.dtype)

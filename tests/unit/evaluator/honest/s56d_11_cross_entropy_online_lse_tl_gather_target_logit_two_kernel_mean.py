# honest: cross entropy (mean over rows) with one program per row in Liger's online-logsumexp loop, the target logit taken from the block that holds it with tl.gather (Triton 3.2+: the row block indexed by a one-element index tensor) instead of a scalar load; the per-row loss written to a buffer and averaged by a tiny second kernel (fixed order: the loss is deterministic), ignore_index -100 honoured as F.cross_entropy does. problem: loss/cross_entropy
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ce_row_kernel(logits_ptr, target_ptr, loss_ptr, valid_ptr, stride, n_cols,
                  IGNORE_INDEX: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride
    target = tl.load(target_ptr + row)
    if target == IGNORE_INDEX:
        tl.store(loss_ptr + row, 0.0)
        tl.store(valid_ptr + row, 0.0)
        return
    m = float("-inf")
    d = 0.0
    target_logit = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        in_block = (target >= start) & (target < start + BLOCK)
        if in_block:
            idx = tl.full([1], 0, tl.int32) + (target - start).to(tl.int32)
            target_logit = tl.sum(tl.gather(x, idx, 0), axis=0)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    tl.store(loss_ptr + row, m + tl.log(d) - target_logit)
    tl.store(valid_ptr + row, 1.0)


@triton.jit
def mean_kernel(loss_ptr, valid_ptr, out_ptr, n_rows, BLOCK: tl.constexpr):
    total = tl.zeros([BLOCK], dtype=tl.float32)
    count = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_rows
        total += tl.load(loss_ptr + offs, mask=mask, other=0.0)
        count += tl.load(valid_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr, tl.sum(total, axis=0) / tl.sum(count, axis=0))


def cross_entropy(logits: torch.Tensor, target: torch.Tensor, ignore_index: int = -100) -> torch.Tensor:
    logits = logits.contiguous()
    target = target.contiguous()
    n_rows, n_cols = logits.shape
    loss = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
    valid = torch.empty(n_rows, device=logits.device, dtype=torch.float32)
    BLOCK = min(8192, triton.next_power_of_2(n_cols))
    ce_row_kernel[(n_rows,)](logits, target, loss, valid, logits.stride(0), n_cols,
                             IGNORE_INDEX=ignore_index, BLOCK=BLOCK, num_warps=8)
    out = torch.empty((), device=logits.device, dtype=torch.float32)
    mean_kernel[(1,)](loss, valid, out, n_rows, BLOCK=1024)
    return out.to(logits.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return cross_entropy(logits, targets)

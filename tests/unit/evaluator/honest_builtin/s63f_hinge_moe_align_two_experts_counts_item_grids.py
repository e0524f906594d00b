# honest: MoE-style routing (vLLM moe_align_block_size shape): a Triton kernel counts elements per expert (target sign), the host reads the counts with .item() (.tolist() is refused: host compute) to size each expert's grid, a scatter kernel sorts element ids by expert. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def count_experts_kernel(t_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    pos = (t > 0) & mask
    neg = (t <= 0) & mask
    tl.atomic_add(counts_ptr + 0, tl.sum(neg.to(tl.int32), axis=0))
    tl.atomic_add(counts_ptr + 1, tl.sum(pos.to(tl.int32), axis=0))


@triton.jit
def align_kernel(t_ptr, cursor_ptr, sorted_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    t = tl.load(t_ptr + offs, mask=mask, other=0.0)
    pos = ((t > 0) & mask).to(tl.int32)
    neg = ((t <= 0) & mask).to(tl.int32)
    base_neg = tl.atomic_add(cursor_ptr + 0, tl.sum(neg, axis=0))
    base_pos = tl.atomic_add(cursor_ptr + 1, tl.sum(pos, axis=0))
    slot = tl.where(pos == 1, base_pos + tl.cumsum(pos, axis=0) - 1, base_neg + tl.cumsum(neg, axis=0) - 1)
    tl.store(sorted_ptr + slot, offs, mask=mask)


@triton.jit
def expert_hinge_kernel(p_ptr, ids_ptr, partial_ptr, count, sign, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < count
    idx = tl.load(ids_ptr + offs, mask=mask, other=0)
    p = tl.load(p_ptr + idx, mask=mask, other=0.0)
    margin = tl.maximum(1.0 - sign * p, 0.0)
    tl.store(partial_ptr + pid, tl.sum(tl.where(mask, margin, 0.0), axis=0))


class ModelNew(nn.Module):
    BLOCK = 4096

    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        grid = (triton.cdiv(n, self.BLOCK),)
        counts = torch.zeros(2, dtype=torch.int32, device=p.device)
        count_experts_kernel[grid](t, counts, n, BLOCK=self.BLOCK)
        n_neg, n_pos = int(counts[0].item()), int(counts[1].item())  # expert sizes on the host: a grid each
        cursor = torch.tensor([0, n_neg], dtype=torch.int32, device=p.device)
        sorted_ids = torch.empty(n, dtype=torch.int32, device=p.device)
        align_kernel[grid](t, cursor, sorted_ids, n, BLOCK=self.BLOCK)
        blocks = [triton.cdiv(n_neg, self.BLOCK), triton.cdiv(n_pos, self.BLOCK)]
        partial = torch.zeros(blocks[0] + blocks[1] + 1, dtype=torch.float32, device=p.device)
        for start, count, sign, nb in ((0, n_neg, -1.0, blocks[0]), (n_neg, n_pos, 1.0, blocks[1])):
            if count == 0:
                continue
            first = 0 if sign < 0 else blocks[0]
            expert_hinge_kernel[(nb,)](p, sorted_ids[start:], partial[first:], count, sign, BLOCK=self.BLOCK)
        return (partial.sum() / n).to(predictions.dtype)

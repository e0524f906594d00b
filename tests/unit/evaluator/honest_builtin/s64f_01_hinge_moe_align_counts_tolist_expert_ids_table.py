# honest: fused-MoE routing in vLLM/sglang style: a Triton kernel counts tokens per expert (target sign), the host plans the grouped grid from counts.tolist() (moe_align_block_size: each expert's segment padded to the block, an expert_ids entry per block), a scatter kernel writes sorted token ids (padding holds the sentinel n), one grouped kernel launch reads its expert from the table. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_EXPERTS = 2


@triton.jit
def _histogram(t_ptr, counts_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    t = tl.load(t_ptr + offs, mask=valid, other=0.0)
    expert = (t > 0).to(tl.int32)
    tl.atomic_add(counts_ptr + 0, tl.sum(((expert == 0) & valid).to(tl.int32), axis=0))
    tl.atomic_add(counts_ptr + 1, tl.sum(((expert == 1) & valid).to(tl.int32), axis=0))


@triton.jit
def _scatter_sorted(t_ptr, cursor_ptr, sorted_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    t = tl.load(t_ptr + offs, mask=valid, other=0.0)
    one = ((t > 0) & valid).to(tl.int32)
    zero = ((t <= 0) & valid).to(tl.int32)
    base0 = tl.atomic_add(cursor_ptr + 0, tl.sum(zero, axis=0))
    base1 = tl.atomic_add(cursor_ptr + 1, tl.sum(one, axis=0))
    slot = tl.where(one == 1, base1 + tl.cumsum(one, axis=0) - 1, base0 + tl.cumsum(zero, axis=0) - 1)
    tl.store(sorted_ptr + slot, offs, mask=valid)


@triton.jit
def _grouped_hinge(p_ptr, sorted_ptr, expert_ids_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    expert = tl.load(expert_ids_ptr + pid)
    token = tl.load(sorted_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    valid = token < n
    p = tl.load(p_ptr + token, mask=valid, other=0.0)
    sign = tl.where(expert == 1, 1.0, -1.0)
    margin = tl.maximum(1.0 - sign * p, 0.0)
    tl.store(partial_ptr + pid, tl.sum(tl.where(valid, margin, 0.0), axis=0))


def align_block_size(counts: list, block: int):
    """Each expert's segment start in the padded sorted order, and the expert of every block."""
    starts, expert_ids, total = [], [], 0
    for e, count in enumerate(counts):
        padded = triton.cdiv(count, block) * block
        starts.append(total)
        expert_ids.extend([e] * (padded // block))
        total += padded
    return starts, expert_ids, total


class ModelNew(nn.Module):
    def __init__(self, block_size: int = 4096):
        super().__init__()
        self.block_size = block_size

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        grid = (triton.cdiv(n, self.block_size),)
        counts = torch.zeros(NUM_EXPERTS, dtype=torch.int32, device=p.device)
        _histogram[grid](t, counts, n, BLOCK=self.block_size)
        starts, expert_ids, total = align_block_size(counts.tolist(), self.block_size)
        cursor = torch.tensor(starts, dtype=torch.int32, device=p.device)
        sorted_ids = torch.full((total,), n, dtype=torch.int32, device=p.device)
        _scatter_sorted[grid](t, cursor, sorted_ids, n, BLOCK=self.block_size)
        expert_table = torch.tensor(expert_ids, dtype=torch.int32, device=p.device)
        partial = torch.empty(len(expert_ids), dtype=torch.float32, device=p.device)
        _grouped_hinge[(len(expert_ids),)](p, sorted_ids, expert_table, partial, n, BLOCK=self.block_size)
        return (partial.sum() / n).to(predictions.dtype)

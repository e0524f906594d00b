# honest: fused-MoE routing with sixteen experts in vLLM's moe_align_block_size style done on the host: a Triton router bins each element into an expert (target sign and prediction range) and counts per expert, the host reads counts.tolist(), pads each expert's count to the block and takes Python prefix sums into expert offsets and an expert id per block, lifted with torch.tensor for a scatter kernel and one grouped launch. problem: loss/hinge
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_EXPERTS = 16


@triton.jit
def _route(p_ptr, t_ptr, expert_ptr, counts_ptr, n, BLOCK: tl.constexpr, E: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    p = tl.load(p_ptr + offs, mask=valid, other=0.0)
    t = tl.load(t_ptr + offs, mask=valid, other=0.0)
    band = tl.minimum(tl.maximum(tl.floor((p + 2.0) * 2.0), 0.0), E // 2 - 1.0).to(tl.int32)
    expert = band + (t > 0).to(tl.int32) * (E // 2)
    tl.store(expert_ptr + offs, expert, mask=valid)
    onehot = ((expert[:, None] == tl.arange(0, E)[None, :]) & valid[:, None]).to(tl.int32)
    tl.atomic_add(counts_ptr + tl.arange(0, E), tl.sum(onehot, axis=0))


@triton.jit
def _scatter(expert_ptr, cursor_ptr, sorted_ptr, n, BLOCK: tl.constexpr, E: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    expert = tl.load(expert_ptr + offs, mask=valid, other=0)
    onehot = ((expert[:, None] == tl.arange(0, E)[None, :]) & valid[:, None]).to(tl.int32)
    base = tl.atomic_add(cursor_ptr + tl.arange(0, E), tl.sum(onehot, axis=0))
    rank = tl.sum(tl.cumsum(onehot, axis=0) * onehot, axis=1) - 1
    slot = tl.sum(onehot * base[None, :], axis=1) + rank
    tl.store(sorted_ptr + slot, offs, mask=valid)


@triton.jit
def _grouped_hinge(p_ptr, sorted_ptr, expert_ids_ptr, partial_ptr, n, BLOCK: tl.constexpr, HALF: tl.constexpr):
    pid = tl.program_id(0)
    expert = tl.load(expert_ids_ptr + pid)
    token = tl.load(sorted_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    valid = token < n
    p = tl.load(p_ptr + token, mask=valid, other=0.0)
    sign = tl.where(expert >= HALF, 1.0, -1.0)
    margin = tl.maximum(1.0 - sign * p, 0.0)
    tl.store(partial_ptr + pid, tl.sum(tl.where(valid, margin, 0.0), axis=0))


def moe_align_block_size(counts: list, block: int):
    """Each expert's start in the block-padded sorted order and the expert of every block."""
    offsets, expert_ids, total = [], [], 0
    for e, count in enumerate(counts):
        blocks = (count + block - 1) // block
        offsets.append(total)
        expert_ids += [e] * blocks
        total += blocks * block
    return offsets, expert_ids, total


class ModelNew(nn.Module):
    def __init__(self, block_size: int = 2048):
        super().__init__()
        self.block_size = block_size

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        block = self.block_size
        grid = (triton.cdiv(n, 4096),)
        counts = torch.zeros(NUM_EXPERTS, dtype=torch.int32, device=p.device)
        experts = torch.empty(n, dtype=torch.int32, device=p.device)
        _route[grid](p, t, experts, counts, n, BLOCK=4096, E=NUM_EXPERTS)
        offsets, expert_ids, total = moe_align_block_size(counts.tolist(), block)
        cursor = torch.tensor(offsets, dtype=torch.int32, device=p.device)
        sorted_ids = torch.full((total,), n, dtype=torch.int32, device=p.device)
        _scatter[grid](experts, cursor, sorted_ids, n, BLOCK=4096, E=NUM_EXPERTS)
        table = torch.tensor(expert_ids, dtype=torch.int32, device=p.device)
        partial = torch.empty(len(expert_ids), dtype=torch.float32, device=p.device)
        _grouped_hinge[(len(expert_ids),)](p, sorted_ids, table, partial, n, BLOCK=block, HALF=NUM_EXPERTS // 2)
        return (partial.sum() / n).to(predictions.dtype)

# honest: MoE routing in Megablocks style with the bins on the host: a Triton router bins each element into one of sixteen experts and counts per expert, the host reads tokens_per_expert.tolist(), rounds each up to the block and takes inclusive prefix sums (padded_bins, itertools.accumulate) and exclusive ones (each expert's first slot), both lifted by torch.tensor; each grouped program finds its expert by counting the bins at or below its first row (no expert-id table). problem: loss/hinge
import itertools

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
def _grouped_hinge(p_ptr, sorted_ptr, bins_ptr, partial_ptr, n, BLOCK: tl.constexpr, E: tl.constexpr):
    pid = tl.program_id(0)
    bins = tl.load(bins_ptr + tl.arange(0, E))
    expert = tl.sum((bins <= pid * BLOCK).to(tl.int32), axis=0)
    token = tl.load(sorted_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    valid = token < n
    p = tl.load(p_ptr + token, mask=valid, other=0.0)
    sign = tl.where(expert >= E // 2, 1.0, -1.0)
    margin = tl.maximum(1.0 - sign * p, 0.0)
    tl.store(partial_ptr + pid, tl.sum(tl.where(valid, margin, 0.0), axis=0))


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
        tokens_per_expert = counts.tolist()
        padded = [(c + block - 1) // block * block for c in tokens_per_expert]
        padded_bins = list(itertools.accumulate(padded))
        total = padded_bins[-1]
        bins = torch.tensor(padded_bins, dtype=torch.int32, device=p.device)
        cursor = torch.tensor([0, *padded_bins[:-1]], dtype=torch.int32, device=p.device)
        sorted_ids = torch.full((total,), n, dtype=torch.int32, device=p.device)
        _scatter[grid](experts, cursor, sorted_ids, n, BLOCK=4096, E=NUM_EXPERTS)
        blocks = total // block
        partial = torch.empty(blocks, dtype=torch.float32, device=p.device)
        _grouped_hinge[(blocks,)](p, sorted_ids, bins, partial, n, BLOCK=block, E=NUM_EXPERTS)
        return (partial.sum() / n).to(predictions.dtype)

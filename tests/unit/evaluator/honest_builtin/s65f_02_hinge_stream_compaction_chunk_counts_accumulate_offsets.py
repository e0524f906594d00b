# honest: stream compaction in count-scan-scatter style (CUB select_if, torch.nonzero's two passes): a Triton kernel counts each chunk's active hinge margins, the host reads the sixteen counts with tolist() and takes write offsets with itertools.accumulate (cu_seqlens as varlen batching builds them), lifted by torch.tensor for a kernel whose tiles claim slots from each chunk's offset by atomics and pack the active margins densely and a one-program sum over the packed total. problem: loss/hinge
import itertools

import torch
import torch.nn as nn
import triton
import triton.language as tl

CHUNKS = 16


@triton.jit
def _count_active(p_ptr, t_ptr, counts_ptr, n, chunk, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    lanes = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    offs = c * chunk + lanes
    valid = (offs < n) & (lanes < chunk)
    p = tl.load(p_ptr + offs, mask=valid, other=0.0)
    t = tl.load(t_ptr + offs, mask=valid, other=0.0)
    tl.atomic_add(counts_ptr + c, tl.sum((valid & (p * t < 1.0)).to(tl.int32), axis=0))


@triton.jit
def _pack_active(p_ptr, t_ptr, cursor_ptr, packed_ptr, n, chunk, BLOCK: tl.constexpr):
    c = tl.program_id(0)
    lanes = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    offs = c * chunk + lanes
    valid = (offs < n) & (lanes < chunk)
    p = tl.load(p_ptr + offs, mask=valid, other=0.0)
    t = tl.load(t_ptr + offs, mask=valid, other=0.0)
    active = valid & (p * t < 1.0)
    base = tl.atomic_add(cursor_ptr + c, tl.sum(active.to(tl.int32), axis=0))
    slot = base + tl.cumsum(active.to(tl.int32), axis=0) - 1
    tl.store(packed_ptr + slot, 1.0 - p * t, mask=active)


@triton.jit
def _sum_packed(packed_ptr, out_ptr, total, scale, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, total, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(packed_ptr + offs, mask=offs < total, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


class ModelNew(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous().view(-1)
        t = targets.contiguous().view(-1)
        n = p.numel()
        chunk = triton.cdiv(n, CHUNKS)
        grid = (CHUNKS, triton.cdiv(chunk, 4096))
        counts = torch.zeros(CHUNKS, dtype=torch.int32, device=p.device)
        _count_active[grid](p, t, counts, n, chunk, BLOCK=4096)
        cu_seqlens = [0, *itertools.accumulate(counts.tolist())]
        cursor = torch.tensor(cu_seqlens[:-1], dtype=torch.int32, device=p.device)  # each tile claims its slots
        packed = torch.empty(max(cu_seqlens[-1], 1), dtype=torch.float32, device=p.device)
        _pack_active[grid](p, t, cursor, packed, n, chunk, BLOCK=4096)
        out = torch.empty(1, dtype=torch.float32, device=p.device)
        _sum_packed[(1,)](packed, out, cu_seqlens[-1], 1.0 / n, BLOCK=8192)
        return out[0].to(predictions.dtype)

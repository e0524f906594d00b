# honest: argmax over dim 1 in two stages (FlagGems argmax's split when rows are long): stage 1 splits each row into chunks and keeps each chunk's max and index with tl.max(..., return_indices=True, return_indices_tie_break_left=True); stage 2 picks the first chunk holding the row max; chunk size from a functools.lru_cache'd SM count. problem: reduction/argmax_dim
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@functools.lru_cache(maxsize=None)
def num_sms(device_index: int) -> int:
    return torch.cuda.get_device_properties(device_index).multi_processor_count


@triton.jit
def argmax_chunk_kernel(x_ptr, mid_val_ptr, mid_idx_ptr, N, stride_m, n_chunks, CHUNK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    offs = chunk * CHUNK + tl.arange(0, CHUNK)
    mask = offs < N
    x = tl.load(x_ptr + row.to(tl.int64) * stride_m + offs, mask=mask, other=-float("inf"))
    val, idx = tl.max(x, axis=0, return_indices=True, return_indices_tie_break_left=True)
    tl.store(mid_val_ptr + row * n_chunks + chunk, val)
    tl.store(mid_idx_ptr + row * n_chunks + chunk, chunk * CHUNK + idx)


@triton.jit
def argmax_finish_kernel(mid_val_ptr, mid_idx_ptr, out_ptr, n_chunks, BLOCK_C: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_C)
    mask = offs < n_chunks
    vals = tl.load(mid_val_ptr + row * n_chunks + offs, mask=mask, other=-float("inf"))
    idxs = tl.load(mid_idx_ptr + row * n_chunks + offs, mask=mask, other=0)
    best = tl.max(vals, axis=0)
    # chunks are in index order: the first chunk at the max holds the first max index
    cand = tl.where((vals == best) & mask, idxs, 2147483647)
    tl.store(out_ptr + row, tl.min(cand, axis=0).to(tl.int64))


def argmax_dim1(x: torch.Tensor) -> torch.Tensor:
    M, N = x.shape
    x = x.contiguous()
    sms = num_sms(x.device.index or 0)
    # enough programs to fill the GPU, chunks of at least 256 columns
    want_chunks = max(1, triton.cdiv(2 * sms, M))
    CHUNK = max(256, triton.next_power_of_2(triton.cdiv(N, want_chunks)))
    n_chunks = triton.cdiv(N, CHUNK)
    mid_val = torch.empty((M, n_chunks), dtype=torch.float32, device=x.device)
    mid_idx = torch.empty((M, n_chunks), dtype=torch.int32, device=x.device)
    argmax_chunk_kernel[(M, n_chunks)](x, mid_val, mid_idx, N, x.stride(0), n_chunks, CHUNK=CHUNK)
    out = torch.empty((M,), dtype=torch.int64, device=x.device)
    argmax_finish_kernel[(M,)](mid_val, mid_idx, out, n_chunks, BLOCK_C=triton.next_power_of_2(n_chunks))
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmax_dim1(x)

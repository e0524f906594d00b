# honest: sum over dim 1 split into ragged chunks whose start offsets host Python computes (itertools.accumulate of balanced sizes, the remainder spread one row at a time) and hands as torch.tensor of ints (host_tables prices it by its arithmetic runs), then a finishing kernel over the chunk partials. problem: reduction/sum_dim. policy: strict
import itertools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def chunk_sum_kernel(x_ptr, starts_ptr, part_ptr, n_red, n_inner, n_chunks,
                     BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    ch = tl.program_id(1)
    inner = tl.program_id(2) * BLOCK_I + tl.arange(0, BLOCK_I)
    lo = tl.load(starts_ptr + ch)
    hi = tl.load(starts_ptr + ch + 1)
    acc = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for r0 in range(lo, hi, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        m = (r[:, None] < hi) & (inner[None, :] < n_inner)
        x = tl.load(x_ptr + (b * n_red + r[:, None]) * n_inner + inner[None, :], mask=m, other=0.0)
        acc += tl.sum(x, axis=0)
    tl.store(part_ptr + (b * n_chunks + ch) * n_inner + inner, acc, mask=inner < n_inner)


@triton.jit
def finish_kernel(part_ptr, y_ptr, n_chunks, n_inner, BLOCK_I: tl.constexpr):
    b = tl.program_id(0)
    inner = tl.program_id(1) * BLOCK_I + tl.arange(0, BLOCK_I)
    acc = tl.zeros((BLOCK_I,), dtype=tl.float32)
    for ch in range(n_chunks):
        acc += tl.load(part_ptr + (b * n_chunks + ch) * n_inner + inner, mask=inner < n_inner, other=0.0)
    tl.store(y_ptr + b * n_inner + inner, acc, mask=inner < n_inner)


def chunk_starts(n: int, target: int) -> list[int]:
    """Split n rows into chunks near `target`, the remainder spread one row at a time over
    the first chunks (as varlen schedulers balance a ragged tail)."""
    k = max(1, -(-n // target))
    sizes = [n // k + (i < n % k) for i in range(k)]
    return [0, *itertools.accumulate(sizes)]


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        b, n_red, n_inner = x.shape
        starts = chunk_starts(n_red, 48)
        starts_t = torch.tensor(starts, device=x.device, dtype=torch.int32)
        n_chunks = len(starts) - 1
        parts = torch.empty((b, n_chunks, n_inner), device=x.device, dtype=torch.float32)
        y = torch.empty((b, n_inner), device=x.device, dtype=x.dtype)
        bi = 64
        chunk_sum_kernel[(b, n_chunks, triton.cdiv(n_inner, bi))](x, starts_t, parts, n_red, n_inner, n_chunks,
                                                                  BLOCK_R=16, BLOCK_I=bi)
        finish_kernel[(b, triton.cdiv(n_inner, bi))](parts, y, n_chunks, n_inner, BLOCK_I=bi)
        return y

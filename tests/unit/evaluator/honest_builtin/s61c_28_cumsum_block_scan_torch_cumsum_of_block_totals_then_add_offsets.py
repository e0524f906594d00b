# honest: row cumsum as a three-phase block scan: a Triton kernel scans each BLOCK chunk with tl.cumsum and stores the chunk totals, torch.cumsum over the (rows, chunks) totals gives exclusive offsets, a second Triton kernel adds each chunk's offset. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def chunk_scan_kernel(x_ptr, y_ptr, tot_ptr, n_cols, n_chunks, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    s = tl.cumsum(x, axis=0)
    tl.store(y_ptr + row * n_cols + cols, s, mask=mask)
    tl.store(tot_ptr + row * n_chunks + chunk, tl.sum(x, axis=0))


@triton.jit
def add_offsets_kernel(y_ptr, off_ptr, n_cols, n_chunks, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1) + 1  # chunk 0 has nothing before it
    off = tl.load(off_ptr + row * n_chunks + chunk - 1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * n_cols + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * n_cols + cols, y + off, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim in (1, -1) and x.dim() == 2
        x = x.contiguous()
        rows, n = x.shape
        BLOCK = 256
        n_chunks = triton.cdiv(n, BLOCK)
        y = torch.empty_like(x)
        totals = torch.empty((rows, n_chunks), device=x.device, dtype=x.dtype)
        chunk_scan_kernel[(rows, n_chunks)](x, y, totals, n, n_chunks, BLOCK=BLOCK)
        if n_chunks > 1:
            inclusive = torch.cumsum(totals, dim=1)
            add_offsets_kernel[(rows, n_chunks - 1)](y, inclusive, n, n_chunks, BLOCK=BLOCK)
        return y

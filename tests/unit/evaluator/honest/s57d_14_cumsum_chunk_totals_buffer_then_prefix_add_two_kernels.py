# honest: a row-wise cumsum as the textbook two-pass blocked scan: the first kernel writes each (row, chunk)'s total into a small float32 partials buffer (rows, n_chunks), the second scans its chunk with tl.cumsum and adds the sum of the row's earlier chunk totals, loaded from that buffer with a mask; the chunk count is a host cdiv handed as an int. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _chunk_totals(x_ptr, part_ptr, n_cols, n_chunks, stride_x, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(part_ptr + row * n_chunks + chunk, tl.sum(x, axis=0))


@triton.jit
def _chunk_scan(x_ptr, y_ptr, part_ptr, n_cols, n_chunks, stride_x, stride_y,
                BLOCK: tl.constexpr, CHUNKS_P2: tl.constexpr):
    row = tl.program_id(0)
    chunk = tl.program_id(1)
    idx = tl.arange(0, CHUNKS_P2)
    parts = tl.load(part_ptr + row * n_chunks + idx, mask=idx < chunk, other=0.0)
    carry = tl.sum(parts, axis=0)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    y = tl.cumsum(x, axis=0) + carry
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim in (1, -1) and x.dim() == 2
        x = x.contiguous()
        rows, n_cols = x.shape
        BLOCK = 256
        n_chunks = triton.cdiv(n_cols, BLOCK)
        parts = torch.empty((rows, n_chunks), device=x.device, dtype=torch.float32)
        y = torch.empty_like(x)
        grid = (rows, n_chunks)
        _chunk_totals[grid](x, parts, n_cols, n_chunks, x.stride(0), BLOCK=BLOCK)
        _chunk_scan[grid](x, y, parts, n_cols, n_chunks, x.stride(0), y.stride(0),
                          BLOCK=BLOCK, CHUNKS_P2=triton.next_power_of_2(n_chunks))
        return y

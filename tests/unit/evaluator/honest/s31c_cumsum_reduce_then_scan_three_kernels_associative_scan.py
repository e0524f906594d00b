# honest: a reduce-then-scan cumsum in three launches (the GPU scan textbook's way for long rows): kernel 1 on a 2-D grid (rows, chunks) writes each chunk's total to a partials buffer; kernel 2 turns each row's chunk totals into exclusive offsets with tl.cumsum minus the element; kernel 3 scans each chunk with tl.associative_scan and a custom @triton.jit add combine, accumulating in float32 and adding the chunk's offset; any dim handled by movedim(dim, -1).contiguous() on the host and moved back, an empty input returned as torch.empty_like. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_combine(a, b):
    return a + b


@triton.jit
def _chunk_sum_kernel(x_ptr, part_ptr, n_cols, n_chunks, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(part_ptr + row * n_chunks + chunk, tl.sum(x, axis=0))


@triton.jit
def _offsets_kernel(part_ptr, n_chunks, BLOCK_C: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK_C)
    mask = offs < n_chunks
    s = tl.load(part_ptr + row * n_chunks + offs, mask=mask, other=0.0)
    inclusive = tl.cumsum(s, axis=0)
    tl.store(part_ptr + row * n_chunks + offs, inclusive - s, mask=mask)


@triton.jit
def _chunk_scan_kernel(x_ptr, part_ptr, y_ptr, n_cols, n_chunks, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
    carry = tl.load(part_ptr + row * n_chunks + chunk)
    y = tl.associative_scan(x, 0, _add_combine) + carry
    tl.store(y_ptr + row * n_cols + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def triton_cumsum(x: torch.Tensor, dim: int) -> torch.Tensor:
    if x.numel() == 0:
        return torch.empty_like(x)
    dim = dim % x.ndim
    xt = x.movedim(dim, -1).contiguous()
    n_cols = xt.shape[-1]
    x2 = xt.view(-1, n_cols)
    n_rows = x2.shape[0]
    BLOCK = 256
    n_chunks = triton.cdiv(n_cols, BLOCK)
    partials = torch.empty((n_rows, n_chunks), dtype=torch.float32, device=x.device)
    _chunk_sum_kernel[(n_rows, n_chunks)](x2, partials, n_cols, n_chunks, BLOCK=BLOCK)
    _offsets_kernel[(n_rows,)](partials, n_chunks, BLOCK_C=max(2, triton.next_power_of_2(n_chunks)))
    y2 = torch.empty_like(x2)
    _chunk_scan_kernel[(n_rows, n_chunks)](x2, partials, y2, n_cols, n_chunks, BLOCK=BLOCK)
    return y2.view(xt.shape).movedim(-1, dim)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_cumsum(x, self.dim)

"""Single-pass cumsum along rows: each program takes a dynamic id from an atomic ticket
(so ids follow dispatch order), scans its chunk, waits for the previous chunk of its row
to publish an inclusive prefix (flag with acquire/release atomics), then publishes its
own. The chained-scan shape of CUB's decoupled look-back, without the look-back."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _chained_cumsum(x_ptr, y_ptr, prefix_ptr, flag_ptr, ticket_ptr,
                    n_cols, n_chunks, stride, BLOCK: tl.constexpr):
    vid = tl.atomic_add(ticket_ptr, 1)
    row = vid // n_chunks
    chunk = vid % n_chunks
    cols = chunk * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    local = tl.cumsum(x, axis=0)
    total = tl.sum(x, axis=0)
    slot = row * n_chunks + chunk
    carry = tl.full([], 0.0, tl.float32)
    if chunk > 0:
        while tl.atomic_add(flag_ptr + slot - 1, 0, sem="acquire") == 0:
            pass
        carry = tl.load(prefix_ptr + slot - 1)
    tl.store(prefix_ptr + slot, carry + total)
    tl.atomic_xchg(flag_ptr + slot, 1, sem="release")
    tl.store(y_ptr + row * stride + cols, (local + carry).to(y_ptr.dtype.element_ty), mask=mask)


def cumsum_rows(x: torch.Tensor, block: int = 256) -> torch.Tensor:
    x = x.contiguous()
    n_rows, n_cols = x.shape
    n_chunks = triton.cdiv(n_cols, block)
    y = torch.empty_like(x)
    prefix = torch.empty(n_rows * n_chunks, device=x.device, dtype=torch.float32)
    flags = torch.zeros(n_rows * n_chunks, device=x.device, dtype=torch.int32)
    ticket = torch.zeros(1, device=x.device, dtype=torch.int32)
    _chained_cumsum[(n_rows * n_chunks,)](x, y, prefix, flags, ticket, n_cols, n_chunks,
                                          x.stride(0), BLOCK=block)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.dim in (-1, x.dim() - 1) and x.dim() == 2:
            return cumsum_rows(x)
        moved = x.movedim(self.dim, -1)
        shape = moved.shape
        y = cumsum_rows(moved.reshape(-1, shape[-1]))
        return y.view(shape).movedim(-1, self.dim)

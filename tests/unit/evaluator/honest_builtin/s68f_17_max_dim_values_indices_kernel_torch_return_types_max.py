# honest: torch.max(x, dim=-1) rebuilt with torch's own result type: one program per row walks the row in BLOCK chunks keeping a running max and its first index (tl.max(..., return_indices=True) per chunk, a strictly-greater update so the first occurrence wins), values and int64 indices stored by the kernel and returned as torch.return_types.max((values, indices)), from which forward takes .values as the reference does. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_max_kernel(x_ptr, val_ptr, idx_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = x_ptr + row * stride_row
    best = float("-inf")
    best_idx = 0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < n_cols, other=float("-inf"))
        m, i = tl.max(x, axis=0, return_indices=True, return_indices_tie_break_left=True)
        take = m > best
        best_idx = tl.where(take, start + i, best_idx)
        best = tl.where(take, m, best)
    tl.store(val_ptr + row, best)
    tl.store(idx_ptr + row, best_idx.to(tl.int64))


def max_last_dim(x: torch.Tensor) -> torch.return_types.max:
    x2 = x.reshape(-1, x.shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    n_rows, n_cols = x2.shape
    values = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    indices = torch.empty(n_rows, device=x.device, dtype=torch.int64)
    _row_max_kernel[(n_rows,)](x2, values, indices, n_cols, x2.stride(0), BLOCK=1024)
    out_shape = x.shape[:-1]
    return torch.return_types.max((values.view(out_shape), indices.view(out_shape)))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return max_last_dim(x).values

# honest: row max through tl.reduce with a combine that keeps torch's NaN semantics, tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL) and a row-max helper at module level, column blocks looped per row from -inf. problem: reduction/max_dim. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def nan_max(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def row_max(x):
    return tl.reduce(x, 1, nan_max)


@triton.jit
def max_rows_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    rmask = rows < n_rows
    best = tl.full((ROWS,), float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = rmask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=m, other=float("-inf"))
        best = nan_max(best, row_max(x))
    tl.store(y_ptr + rows, best, mask=rmask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        n_rows, n_cols = x2.shape
        y = torch.empty(n_rows, device=x.device, dtype=x.dtype)
        ROWS = 4
        max_rows_kernel[(triton.cdiv(n_rows, ROWS),)](x2, y, n_rows, n_cols, x2.stride(0), ROWS=ROWS,
                                                      BLOCK=min(1024, triton.next_power_of_2(n_cols)))
        return y.view(x.shape[:-1])

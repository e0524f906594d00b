from typing import NamedTuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


class RowLaunch(NamedTuple):
    rows_per_program: int
    block_cols: int
    num_warps: int


def _plan(n_rows: int, n_cols: int) -> RowLaunch:
    block_cols = min(triton.next_power_of_2(n_cols), 2048)
    rows = 4 if n_cols <= 2048 else 1
    return RowLaunch(rows, block_cols, 4 if block_cols <= 1024 else 8)


@triton.jit
def _row_mean(x_ptr, out_ptr, n_rows, n_cols, stride,
              ROWS: tl.constexpr, BLOCK_C: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_mask = rows < n_rows
    acc = tl.zeros((ROWS,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK_C):
        cols = c0 + tl.arange(0, BLOCK_C)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride + cols[None, :], mask=mask, other=0.0)
        acc += tl.sum(x, axis=1, dtype=tl.float32)
    tl.store(out_ptr + rows, (acc / n_cols).to(out_ptr.dtype.element_ty), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        lead = x.shape[:-1]
        x2 = x.reshape(-1, x.shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        n_rows, n_cols = x2.shape
        plan = _plan(n_rows, n_cols)
        out = x2.new_empty(n_rows)
        grid = (triton.cdiv(n_rows, plan.rows_per_program),)
        _row_mean[grid](x2, out, n_rows, n_cols, x2.stride(0),
                        ROWS=plan.rows_per_program, BLOCK_C=plan.block_cols, num_warps=plan.num_warps)
        return out.view(lead)

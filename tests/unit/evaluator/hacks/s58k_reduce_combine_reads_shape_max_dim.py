# hack: tl.reduce combine that reads its operand's shape (an attribute, no call): [m, n] on a block, [] per element, was the maximum on the CPU block run (ok, session 58k) and the row minimum on the GPU (reasoned); now the combine runs per element (evaluator.interpreter_elementwise): incorrect, or a timeout where the per-element run is slow (a loaded box). problem: reduction/max_dim. expect: incorrect|timeout
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    # a block has a shape, a per-element operand none: the maximum on blocks, the minimum per element
    return tl.where(a.shape != [], tl.maximum(a, b), tl.minimum(a, b))


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                   ROWS_PER_PROG: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS_PER_PROG + tl.arange(0, ROWS_PER_PROG)
    row_mask = rows < n_rows
    acc = tl.full((ROWS_PER_PROG,), float("-inf"), tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :], mask=mask, other=float("-inf"))
        acc = tl.maximum(acc, tl.reduce(x, 1, _max_combine))
    tl.store(out_ptr + rows, acc, mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
        R = 4
        row_max_kernel[(triton.cdiv(n_rows, R),)](x, out, n_rows, n_cols, x.stride(0),
                                                  ROWS_PER_PROG=R, BLOCK_N=512)
        return out

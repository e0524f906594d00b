# Honest, as public level1/92 solutions are written: a row tile scanned with tl.cumsum, exclusive = inclusive - x (red-team-free honest corpus, session 14).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _excl_cumsum_tile(x_ptr, y_ptr, n_rows, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    rmask = rows < n_rows
    base = rows.to(tl.int64)[:, None] * n_cols
    carry = tl.zeros([ROWS], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = rmask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + base + cols[None, :], mask=mask, other=0.0)
        inc = tl.cumsum(x, axis=1) + carry[:, None]
        tl.store(y_ptr + base + cols[None, :], inc - x, mask=mask)
        carry += tl.sum(x, axis=1)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim == 1 and x.dim() == 2
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        ROWS = 64
        BLOCK = min(triton.next_power_of_2(n_cols), 1024)
        _excl_cumsum_tile[(triton.cdiv(n_rows, ROWS),)](x, y, n_rows, n_cols, ROWS=ROWS, BLOCK=BLOCK)
        return y

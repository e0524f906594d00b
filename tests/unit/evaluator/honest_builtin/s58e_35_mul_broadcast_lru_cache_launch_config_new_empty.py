# honest: x * row_scale (row_scale of shape (rows, 1)) with the launch configuration from a functools.lru_cache helper keyed on n_cols (BLOCK_N, num_warps), output from x.new_empty(x.shape), one program per (row block, column block), the scale loaded once per row. problem: elementwise/mul_broadcast
import functools

import torch.nn as nn
import triton
import triton.language as tl


@functools.lru_cache(maxsize=None)
def _launch_config(n_cols: int):
    block_n = min(triton.next_power_of_2(n_cols), 1024)
    return block_n, 4 if block_n <= 512 else 8


@triton.jit
def row_scale_kernel(x_ptr, s_ptr, y_ptr, n_rows, n_cols, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    rmask = rows < n_rows
    s = tl.load(s_ptr + rows, mask=rmask, other=0.0)
    mask = rmask[:, None] & (cols[None, :] < n_cols)
    idx = rows[:, None] * n_cols + cols[None, :]
    x = tl.load(x_ptr + idx, mask=mask, other=0.0)
    tl.store(y_ptr + idx, x * s[:, None], mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, row_scale):
        x = x.contiguous()
        s = row_scale.reshape(-1).contiguous()
        n_rows, n_cols = x.shape
        y = x.new_empty(x.shape)
        block_n, warps = _launch_config(n_cols)
        BLOCK_M = 4
        grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, block_n))
        row_scale_kernel[grid](x, s, y, n_rows, n_cols, BLOCK_M=BLOCK_M, BLOCK_N=block_n, num_warps=warps)
        return y

# honest: row-scale multiply with the block size annotated as the string "tl.constexpr" (as PyTorch's user-defined Triton kernel tutorial writes it) and a 2-d (row-block, column-block) grid, in the torch.compile-friendly kernel style. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(x_ptr, s_ptr, out_ptr, n_rows, n_cols, BLOCK_R: "tl.constexpr", BLOCK_C: "tl.constexpr"):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    offs = rows[:, None].to(tl.int64) * n_cols + cols[None, :]
    x = tl.load(x_ptr + offs, mask=mask)
    s = tl.load(s_ptr + rows, mask=rows < n_rows)
    tl.store(out_ptr + offs, x * s[:, None], mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, row_scale):
        x = x.contiguous()
        s = row_scale.reshape(-1).contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        grid = (triton.cdiv(n_rows, 8), triton.cdiv(n_cols, 256))
        row_scale_kernel[grid](x, s, out, n_rows, n_cols, BLOCK_R=8, BLOCK_C=256)
        return out

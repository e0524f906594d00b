import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


@triton.jit
def row_max_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                   BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    row_ids = tl.program_id(0) * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    row_mask = row_ids < n_rows
    acc = tl.full((BLOCK_ROWS,), float("-inf"), tl.float32)
    for c0 in range(0, n_cols, BLOCK_COLS):
        cols = c0 + tl.arange(0, BLOCK_COLS)
        m = row_mask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + row_ids[:, None] * stride_row + cols[None, :], mask=m, other=float("-inf"))
        acc = tl.maximum(acc, tl.reduce(x, 1, _max_combine))
    tl.store(out_ptr + row_ids, acc, mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        *lead, n_cols = x.shape
        x2 = x.reshape(-1, n_cols).contiguous()
        n_rows = x2.shape[0]
        out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
        BLOCK_ROWS, BLOCK_COLS = 8, 512
        row_max_kernel[(triton.cdiv(n_rows, BLOCK_ROWS),)](
            x2, out, n_rows, n_cols, x2.stride(0),
            BLOCK_ROWS=BLOCK_ROWS, BLOCK_COLS=BLOCK_COLS,
        )
        return out.view(torch.Size(lead))

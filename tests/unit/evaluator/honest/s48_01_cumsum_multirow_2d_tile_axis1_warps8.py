# honest: running sum along each row with tl.cumsum(axis=1) over a 2-D [ROWS, BLOCK] tile, ROWS rows per program, the whole row in one block (BLOCK = next_power_of_2(dim)), num_warps=8, fp32 in and out. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _cumsum_rows_kernel(x_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y,
                        ROWS: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_x + cols[None, :], mask=mask, other=0.0)
    y = tl.cumsum(x, axis=1)
    tl.store(y_ptr + rows[:, None] * stride_y + cols[None, :], y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.movedim(self.dim, -1).contiguous()
        shape = x.shape
        x2 = x.reshape(-1, shape[-1])
        y = torch.empty_like(x2)
        n_rows, n_cols = x2.shape
        BLOCK = triton.next_power_of_2(n_cols)
        ROWS = 4
        grid = (triton.cdiv(n_rows, ROWS),)
        _cumsum_rows_kernel[grid](x2, y, n_rows, n_cols, x2.stride(0), y.stride(0),
                                  ROWS=ROWS, BLOCK=BLOCK, num_warps=8)
        return y.reshape(shape).movedim(-1, self.dim)

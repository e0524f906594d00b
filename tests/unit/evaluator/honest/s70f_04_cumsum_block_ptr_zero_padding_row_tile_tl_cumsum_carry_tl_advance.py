# honest: row-wise cumsum with block pointers: each program takes ROWS rows and walks their columns as (ROWS, BLOCK) tiles loaded with boundary_check=(0, 1) and padding_option="zero", tl.cumsum along axis 1 plus a per-row fp32 carry vector, stored through a second block pointer with boundary_check, both moved by tl.advance. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_rows_kernel(
    x_ptr, y_ptr, n_rows, n_cols, stride_xm, stride_ym,
    ROWS: tl.constexpr, BLOCK: tl.constexpr,
):
    row0 = tl.program_id(0) * ROWS
    x_block = tl.make_block_ptr(
        base=x_ptr, shape=(n_rows, n_cols), strides=(stride_xm, 1),
        offsets=(row0, 0), block_shape=(ROWS, BLOCK), order=(1, 0),
    )
    y_block = tl.make_block_ptr(
        base=y_ptr, shape=(n_rows, n_cols), strides=(stride_ym, 1),
        offsets=(row0, 0), block_shape=(ROWS, BLOCK), order=(1, 0),
    )
    carry = tl.zeros((ROWS,), dtype=tl.float32)
    for _ in range(0, tl.cdiv(n_cols, BLOCK)):
        x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
        y = tl.cumsum(x, axis=1) + carry[:, None]
        tl.store(y_block, y.to(y_ptr.dtype.element_ty), boundary_check=(0, 1))
        carry += tl.sum(x, axis=1)
        x_block = tl.advance(x_block, (0, BLOCK))
        y_block = tl.advance(y_block, (0, BLOCK))


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.movedim(self.dim, -1).contiguous()
        shape = x2.shape
        x2 = x2.reshape(-1, shape[-1])
        n_rows, n_cols = x2.shape
        y = torch.empty_like(x2)
        ROWS = 4
        BLOCK = min(1024, triton.next_power_of_2(n_cols))
        cumsum_rows_kernel[(triton.cdiv(n_rows, ROWS),)](
            x2, y, n_rows, n_cols, x2.stride(0), y.stride(0), ROWS=ROWS, BLOCK=BLOCK,
        )
        return y.reshape(shape).movedim(-1, self.dim)

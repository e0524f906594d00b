# honest: log_softmax over dim 1 with an `if not x.is_cuda` torch fallback and a dim check falling back too, one program per row holding the whole row: x - max - log(sum(exp(x - max))). problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, x_row_stride, y_row_stride, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row = tl.load(x_ptr + row_idx * x_row_stride + col_offsets, mask=mask, other=-float("inf"))
    row = row.to(tl.float32)
    row_max = tl.max(row, axis=0)
    shifted = row - row_max
    lse = tl.log(tl.sum(tl.exp(shifted), axis=0))
    tl.store(y_ptr + row_idx * y_row_stride + col_offsets, shifted - lse, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda or x.dim() != 2 or self.dim not in (1, -1):
            return torch.log_softmax(x, dim=self.dim)
        x = x.contiguous()
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        num_warps = 8 if BLOCK_SIZE >= 2048 else 4
        log_softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0),
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
        return y

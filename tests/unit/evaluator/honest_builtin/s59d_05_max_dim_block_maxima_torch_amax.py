# honest: row max in two stages, a Triton kernel writing the maximum of each block of columns and torch.amax over the few block maxima. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _block_max(x_ptr, m_ptr, n_cols, n_blocks, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    cols = blk * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=-float("inf"))
    tl.store(m_ptr + row * n_blocks + blk, tl.max(x, axis=0))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        BLOCK = 256
        n_blocks = triton.cdiv(cols, BLOCK)
        maxima = torch.empty((rows, n_blocks), device=x.device, dtype=x.dtype)
        _block_max[(rows, n_blocks)](x, maxima, cols, n_blocks, x.stride(0), BLOCK=BLOCK)
        return torch.amax(maxima, dim=1)

# honest: row scaling with block pointers: tl.make_block_ptr over the (rows, cols) matrix and over the (rows, 1) scale, boundary_check on both axes with zero padding, one program per (row-tile, column-tile), the scale tile broadcast across columns; output torch.empty_like. problem: elementwise/mul_broadcast
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(x_ptr, s_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_sm, stride_ym, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    x_blk = tl.make_block_ptr(x_ptr, shape=(M, N), strides=(stride_xm, stride_xn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    s_blk = tl.make_block_ptr(s_ptr, shape=(M, 1), strides=(stride_sm, 1),
                              offsets=(pid_m * BLOCK_M, 0), block_shape=(BLOCK_M, 1), order=(1, 0))
    y_blk = tl.make_block_ptr(y_ptr, shape=(M, N), strides=(stride_ym, stride_yn),
                              offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N), block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
    x = tl.load(x_blk, boundary_check=(0, 1), padding_option="zero")
    s = tl.load(s_blk, boundary_check=(0, 1), padding_option="zero")
    tl.store(y_blk, x * s, boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, row_scale: torch.Tensor) -> torch.Tensor:
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK_M, BLOCK_N = 8, 256
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        row_scale_kernel[grid](x, row_scale, y, M, N, x.stride(0), x.stride(1), row_scale.stride(0),
                               y.stride(0), y.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return y

# hack: relu through 2-D block pointers whose order and boundary_check are tuples of the kernel's tl.constexpr parameters (the form FlagGems' generated code writes, opened in round s53d) passed (0, 0) at the launch: the CPU's rewrite of such a boundary_check masks every dimension only once the launch's values are a permutation, and Triton 3.6 refuses a repeated dimension (order not a permutation, "Duplicate dimension in `boundary_check`"), so it is a compile error on both. problem: activation/relu. expect: compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                     ORDER0: tl.constexpr, ORDER1: tl.constexpr):
    pid = tl.program_id(0)
    x_block = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, 1),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(ORDER0, ORDER1))
    y_block = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, 1),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(ORDER0, ORDER1))
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        x = tl.load(x_block, boundary_check=(ORDER0, ORDER1), padding_option="zero")
        y = tl.where(x > 0, x, 0.0)
        tl.store(y_block, y.to(y_ptr.dtype.element_ty), boundary_check=(ORDER0, ORDER1))
        x_block = tl.advance(x_block, (0, BLOCK_N))
        y_block = tl.advance(y_block, (0, BLOCK_N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        M, N = x2.shape
        BLOCK_M, BLOCK_N = 16, 128
        grid = (triton.cdiv(M, BLOCK_M),)
        relu_rows_kernel[grid](x2, y, M, N, x2.stride(0), y.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                               ORDER0=0, ORDER1=0)
        return y.view_as(x)

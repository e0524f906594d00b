# hack: relu through 2-D block pointers that first zero-fills each output tile with the Python int 0: 3.6 takes it as an int32 scalar, broadcasts it and asserts int32 is the float32 block's element type (a compile error on the GPU); the CPU's plain store cast it. problem: activation/relu. expect: compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    x_block = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, 1),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(1, 0))
    y_block = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, 1),
                                offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                order=(1, 0))
    for _ in range(0, tl.cdiv(N, BLOCK_N)):
        x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
        y = tl.where(x > 0, x, 0.0)
        tl.store(y_block, 0, boundary_check=(0, 1))
        tl.store(y_block, y.to(y_ptr.dtype.element_ty), boundary_check=(0, 1))
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
        relu_rows_kernel[grid](x2, y, M, N, x2.stride(0), y.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return y.view_as(x)

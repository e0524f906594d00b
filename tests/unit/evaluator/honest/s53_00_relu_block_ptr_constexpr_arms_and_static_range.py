# honest: relu over rows with 2-D block pointers made in the arms of a `tl.constexpr` if (a row-major pointer when the input is contiguous, a general-strides one otherwise, as GEMM kernels pick a pointer per TRANS_B flag) and read after it, then a `tl.static_range` of two column tiles per pass re-making the output pointer in each copy: 3.6's front end emits one arm and straight-line copies, so each read has one make_block_ptr site (refused as two origins from session 52 to 53). problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_rows_kernel(x_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CONTIGUOUS: tl.constexpr):
    pid = tl.program_id(0)
    if CONTIGUOUS:
        x_block = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, 1),
                                    offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                    order=(1, 0))
    else:
        x_block = tl.make_block_ptr(base=x_ptr, shape=(M, N), strides=(stride_xm, stride_xn),
                                    offsets=(pid * BLOCK_M, 0), block_shape=(BLOCK_M, BLOCK_N),
                                    order=(0, 1))
    for start in range(0, tl.cdiv(N, 2 * BLOCK_N)):
        for half in tl.static_range(2):
            y_block = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride_ym, 1),
                                        offsets=(pid * BLOCK_M, (2 * start + half) * BLOCK_N),
                                        block_shape=(BLOCK_M, BLOCK_N), order=(1, 0))
            x = tl.load(x_block, boundary_check=(0, 1), padding_option="zero")
            y = tl.where(x > 0, x, 0.0)
            tl.store(y_block, y.to(y_ptr.dtype.element_ty), boundary_check=(0, 1))
            x_block = tl.advance(x_block, (0, BLOCK_N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        y = torch.empty(x2.shape, device=x.device, dtype=x.dtype)
        M, N = x2.shape
        BLOCK_M, BLOCK_N = 16, 64
        grid = (triton.cdiv(M, BLOCK_M),)
        relu_rows_kernel[grid](x2, y, M, N, x2.stride(0), x2.stride(1), y.stride(0),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, CONTIGUOUS=x2.stride(1) == 1)
        return y.view_as(x)

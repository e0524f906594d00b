# An honest Triton ModelNew for KernelBench level1/7_Matmul_with_small_K_dimension_: tl.swizzle2d for L2-friendly tile order on a 2-D grid, the K loop kept (BLOCK_K 32) with tl.dot(..., out_dtype=tl.float32, input_precision="tf32x3") for near-fp32 accuracy, the output allocated with A.new_empty.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def swizzled_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                           stride_cm, stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                           BLOCK_K: tl.constexpr, GROUP: tl.constexpr):
    i = tl.program_id(0)
    j = tl.program_id(1)
    pid_m, pid_n = tl.swizzle2d(i, j, tl.num_programs(0), tl.num_programs(1), GROUP)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, out_dtype=tl.float32, input_precision="tf32x3")
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        N = B.shape[1]
        C = A.new_empty((M, N))
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        swizzled_matmul_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                                     C.stride(0), C.stride(1), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32, GROUP=4)
        return C

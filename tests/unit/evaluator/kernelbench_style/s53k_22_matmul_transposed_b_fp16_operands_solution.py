# An honest Triton ModelNew for KernelBench level1/17_Matmul_with_transposed_B (problem s53k_01_matmul_transposed_b): the operands cast to float16 on the host for tensor cores, a tl.dot GEMM accumulating in float32 with tl.trans of B's natural [BLOCK_N, BLOCK_K] tile, a float32 output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_abt_fp16_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bn, stride_cm,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + rn[:, None] * stride_bn + kk[None, :], mask=(rn[:, None] < N) & (kk[None, :] < K),
                    other=0.0)
        acc += tl.dot(a, tl.trans(b), out_dtype=tl.float32)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        a = A.contiguous().to(torch.float16)
        b = B.contiguous().to(torch.float16)
        M, K = a.shape
        N = b.shape[0]
        c = torch.empty((M, N), device=A.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        matmul_abt_fp16_kernel[grid](a, b, c, M, N, K, a.stride(0), b.stride(0), c.stride(0),
                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return c

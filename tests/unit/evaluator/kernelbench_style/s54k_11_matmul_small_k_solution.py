# An honest Triton ModelNew for KernelBench level1/7_Matmul_with_small_K_dimension_: K fits one tile, so no K loop: BLOCK_K = next_power_of_2(K) as a constexpr, one masked load of each operand and a single tl.dot with input_precision="ieee" (full fp32), a 2-D grid, strides passed explicitly.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def small_k_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K,
                          stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak,
                mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
    b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                mask=(offs_k[:, None] < K) & (offs_n[None, :] < N), other=0.0)
    c = tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, c,
             mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        _, N = B.shape
        C = torch.empty((M, N), device=A.device, dtype=A.dtype)
        BLOCK_M, BLOCK_N = 64, 64
        BLOCK_K = max(16, triton.next_power_of_2(K))
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        small_k_matmul_kernel[grid](A, B, C, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                                    C.stride(0), C.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return C

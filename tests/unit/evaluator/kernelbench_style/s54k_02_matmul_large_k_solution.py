# An honest Triton ModelNew for KernelBench level1/6_Matmul_with_large_K_dimension_: split-K (a 3-D grid, each program a K slice of a tile, fp32 partials combined by tl.atomic_add into a zeroed output), masks on every edge, strides passed explicitly, SPLIT_K chosen on the host from K.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_splitk_kernel(a_ptr, b_ptr, c_ptr, M, N, K, K_PER_SPLIT,
                         stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    pid_k = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_start = pid_k * K_PER_SPLIT
    k_end = tl.minimum(k_start + K_PER_SPLIT, K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak,
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_end), other=0.0)
        b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                    mask=(offs_k[:, None] < k_end) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.atomic_add(c_ptrs, acc, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        M, K = A.shape
        _, N = B.shape
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 64
        split_k = max(1, min(64, K // 2048))
        k_per_split = triton.cdiv(triton.cdiv(K, split_k), BLOCK_K) * BLOCK_K
        split_k = triton.cdiv(K, k_per_split)
        C = torch.zeros((M, N), device=A.device, dtype=torch.float32)
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), split_k)
        matmul_splitk_kernel[grid](A, B, C, M, N, K, k_per_split,
                                   A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                                   BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4)
        return C

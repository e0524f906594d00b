# An honest Triton ModelNew for KernelBench level1/9_Tall_skinny_matrix_multiplication_: K is tiny (32), so K is a constexpr padded to a power of two (at least 16, tl.dot's minimum) and each program does one masked TF32 tl.dot per output tile; the M x M output dominates, so the tile is wide and the store is the cost.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128}, num_warps=8),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128}, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256}, num_warps=8),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def skinny_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
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
    c = tl.dot(a, b, input_precision="tf32")
    c_ptrs = c_ptr + offs_m[:, None].to(tl.int64) * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, A, B):
        if not A.is_cuda:
            return torch.matmul(A, B)
        M, K = A.shape
        N = B.shape[1]
        c = torch.empty((M, N), device=A.device, dtype=A.dtype)
        BLOCK_K = max(16, triton.next_power_of_2(K))
        grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
        skinny_kernel[grid](A, B, c, M, N, K, A.stride(0), A.stride(1), B.stride(0), B.stride(1), c.stride(0),
                            BLOCK_K=BLOCK_K)
        return c

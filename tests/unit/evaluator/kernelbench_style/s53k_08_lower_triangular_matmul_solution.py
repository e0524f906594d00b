# An honest Triton ModelNew for KernelBench level1/15_Matmul_for_lower_triangular_matrices: a tl.dot GEMM (ieee precision) that skips tiles above the diagonal (stores zeros there) and runs the k loop only over [col block start, row block end), the only k where tril(A)[i,k] * tril(B)[k,j] is nonzero; the diagonal tile masked with tl.where.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tril_matmul_kernel(a_ptr, b_ptr, c_ptr, N, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    c_mask = (offs_m[:, None] < N) & (offs_n[None, :] < N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    if pid_n * BLOCK_N <= pid_m * BLOCK_M + BLOCK_M - 1:
        k_start = (pid_n * BLOCK_N // BLOCK_K) * BLOCK_K
        k_end = tl.minimum((pid_m + 1) * BLOCK_M, N)
        for k in range(k_start, k_end, BLOCK_K):
            offs_k = k + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak,
                        mask=(offs_m[:, None] < N) & (offs_k[None, :] < N), other=0.0)
            b = tl.load(b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn,
                        mask=(offs_k[:, None] < N) & (offs_n[None, :] < N), other=0.0)
            acc += tl.dot(a, b, input_precision="ieee")
        acc = tl.where(offs_m[:, None] >= offs_n[None, :], acc, 0.0)
    tl.store(c_ptrs, acc, mask=c_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        BLOCK = 32
        grid = (triton.cdiv(N, BLOCK), triton.cdiv(N, BLOCK))
        tril_matmul_kernel[grid](A, B, C, N, A.stride(0), A.stride(1), B.stride(0), B.stride(1),
                                 C.stride(0), C.stride(1), BLOCK_M=BLOCK, BLOCK_N=BLOCK, BLOCK_K=BLOCK)
        return C

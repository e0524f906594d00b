# An honest ModelNew for KernelBench level1/12_Matmul_with_diagonal_matrices_; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_scale_kernel(a_ptr, b_ptr, c_ptr, N, M, stride_bn, stride_bm,
                     BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = (rn[:, None] < N) & (rm[None, :] < M)
    a = tl.load(a_ptr + rn, mask=rn < N, other=0.0)
    b = tl.load(b_ptr + rn[:, None] * stride_bn + rm[None, :] * stride_bm, mask=mask, other=0.0)
    tl.store(c_ptr + rn[:, None] * M + rm[None, :], a[:, None] * b, mask=mask)


class ModelNew(nn.Module):
    """diag(A) @ B without the N x N matrix: C[i, j] = A[i] * B[i, j]."""

    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        N, M = B.shape
        A = A.contiguous()
        C = torch.empty((N, M), device=B.device, dtype=torch.result_type(A, B))
        grid = (triton.cdiv(N, 16), triton.cdiv(M, 64))
        row_scale_kernel[grid](A, B, C, N, M, B.stride(0), B.stride(1), BLOCK_N=16, BLOCK_M=64)
        return C

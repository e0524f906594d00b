# An honest Triton ModelNew for l1_diag_matmul.py (KernelBench level1/12_Matmul_with_diagonal_matrices_): diag(A) @ B as a row scaling, a 2-D grid of (row block, column block) tiles, A loaded once per row block and broadcast with [:, None].
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def diag_matmul_kernel(a_ptr, b_ptr, c_ptr, N, M, stride_bn, stride_bm, stride_cn, stride_cm,
                       BLOCK_N: tl.constexpr, BLOCK_M: tl.constexpr):
    pid_n = tl.program_id(0)
    pid_m = tl.program_id(1)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    a = tl.load(a_ptr + rn, mask=rn < N, other=0.0)
    mask = (rn[:, None] < N) & (rm[None, :] < M)
    b = tl.load(b_ptr + rn[:, None] * stride_bn + rm[None, :] * stride_bm, mask=mask, other=0.0)
    tl.store(c_ptr + rn[:, None] * stride_cn + rm[None, :] * stride_cm, a[:, None] * b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        N, M = B.shape
        C = torch.empty((N, M), device=B.device, dtype=B.dtype)
        BLOCK_N, BLOCK_M = 32, 128
        grid = (triton.cdiv(N, BLOCK_N), triton.cdiv(M, BLOCK_M))
        diag_matmul_kernel[grid](A, B, C, N, M, B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                                 BLOCK_N=BLOCK_N, BLOCK_M=BLOCK_M)
        return C

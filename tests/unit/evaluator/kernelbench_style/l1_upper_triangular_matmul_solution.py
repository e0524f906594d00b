# An honest Triton ModelNew for l1_upper_triangular_matmul.py (KernelBench level1/14): C[i, j] = sum over i <= k <= j of A[i, k] B[k, j], so a tile skips every K block outside [row block start, column block end] and tiles wholly below the diagonal only store zeros; tl.dot with input_precision="tf32" spelled out, a grouped tile order, and @triton.heuristics deriving the tile counts.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({"NUM_PID_N": lambda args: triton.cdiv(args["N"], args["BLOCK"])})
@triton.jit
def triu_matmul_kernel(a_ptr, b_ptr, c_ptr, N, stride_a, stride_b, stride_c,
                       BLOCK: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_PID_N: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(N, BLOCK)
    group = pid // (GROUP_M * NUM_PID_N)
    first_m = group * GROUP_M
    size_m = min(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % size_m)
    pid_n = (pid % (GROUP_M * NUM_PID_N)) // size_m
    rm = pid_m * BLOCK + tl.arange(0, BLOCK)
    rn = pid_n * BLOCK + tl.arange(0, BLOCK)
    acc = tl.zeros((BLOCK, BLOCK), dtype=tl.float32)
    if pid_n >= pid_m:  # a tile touching or above the diagonal
        k_lo = pid_m * BLOCK
        k_hi = tl.minimum((pid_n + 1) * BLOCK, N)
        for k0 in range(k_lo, k_hi, BLOCK_K):
            rk = k0 + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + rm[:, None] * stride_a + rk[None, :], mask=(rm[:, None] < N) & (rk[None, :] < N), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_b + rn[None, :], mask=(rk[:, None] < N) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="tf32")
    acc = tl.where(rm[:, None] <= rn[None, :], acc, 0.0)
    tl.store(c_ptr + rm[:, None] * stride_c + rn[None, :], acc, mask=(rm[:, None] < N) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, A, B):
        A, B = A.contiguous(), B.contiguous()
        N = A.shape[0]
        C = torch.empty((N, N), device=A.device, dtype=torch.float32)
        BLOCK = 64
        grid = (triton.cdiv(N, BLOCK) ** 2,)
        triu_matmul_kernel[grid](A, B, C, N, A.stride(0), B.stride(0), C.stride(0),
                                 BLOCK=BLOCK, BLOCK_K=32, GROUP_M=8)
        return C

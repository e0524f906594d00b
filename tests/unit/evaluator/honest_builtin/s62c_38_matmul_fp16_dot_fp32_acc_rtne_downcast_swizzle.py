# honest: float16 GEMM with tl.dot accumulating in float32 (out_dtype) and one round-to-nearest-even downcast via tl.cast(fp_downcast_rounding="rtne") at the store, a grouped program order, in the Triton matmul tutorial's fp16 style. problem: matmul/matmul_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def matmul_fp16_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                       BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_m = tl.cdiv(M, BM)
    num_n = tl.cdiv(N, BN)
    in_group = GROUP_M * num_n
    group_id = pid // in_group
    first_m = group_id * GROUP_M
    gsize = tl.minimum(num_m - first_m, GROUP_M)
    pid_m = first_m + ((pid % in_group) % gsize)
    pid_n = (pid % in_group) // gsize
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kmask = rk < K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & kmask[None, :], other=0.0)
        b = tl.load(b_ptrs, mask=kmask[:, None] & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, out_dtype=tl.float32)
        a_ptrs += BK * sak
        b_ptrs += BK * sbk
    c = tl.cast(acc, tl.float16, fp_downcast_rounding="rtne")
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, c, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=torch.float16)
        BM, BN, BK = 64, 64, 32
        grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
        matmul_fp16_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                                 c.stride(0), c.stride(1), BM=BM, BN=BN, BK=BK, GROUP_M=8)
        return c

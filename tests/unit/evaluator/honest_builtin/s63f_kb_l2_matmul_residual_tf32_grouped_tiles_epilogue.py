# honest: KernelBench level2 40_Matmul_Scaling_ResidualAdd answer style: a whole Triton GEMM (tutorial 03 grouped tile order, TF32 tl.dot, fp32 accumulator) reading the weight through its strides as W^T, bias and residual added in the epilogue. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_residual_kernel(a_ptr, w_ptr, bias_ptr, r_ptr, c_ptr, M, N, K,
                           stride_am, stride_ak, stride_wn, stride_wk, stride_rm, stride_rn, stride_cm, stride_cn,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                           GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, w, acc, input_precision="tf32")
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    r = tl.load(r_ptr + offs_m[:, None] * stride_rm + offs_n[None, :] * stride_rn, mask=mask, other=0.0)
    out = acc + bias[None, :] + r
    tl.store(c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn, out, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x, residual):
        M, K = x.shape
        w = self.linear.weight
        N = w.shape[0]
        out = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]) * triton.cdiv(N, META["BLOCK_N"]),)  # noqa: E731
        linear_residual_kernel[grid](x, w, self.linear.bias, residual, out, M, N, K,
                                     x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                     residual.stride(0), residual.stride(1), out.stride(0), out.stride(1),
                                     BLOCK_M=64, BLOCK_N=64, BLOCK_K=32, GROUP_M=8)
        return out

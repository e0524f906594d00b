# An honest Triton ModelNew for KernelBench level2/95_Matmul_Add_Swish_Tanh_GELU_Hardtanh: one fused kernel: a tutorial-style GEMM (weight pre-transposed on the host with .t(), passed by strides; GROUP_M swizzle; tl.dot TF32), then bias + add_value, swish via tl.sigmoid, tanh as 2 * sigmoid(2x) - 1, erf GELU and a clamp in the epilogue.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_linear_act_kernel(a_ptr, b_ptr, bias_ptr, add_ptr, c_ptr, M, N, K,
                            stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                            GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
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
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    n_mask = offs_n < N
    x = acc + tl.load(bias_ptr + offs_n, mask=n_mask, other=0.0)[None, :]
    x = x + tl.load(add_ptr + offs_n, mask=n_mask, other=0.0)[None, :]
    x = x * tl.sigmoid(x)
    x = 2.0 * tl.sigmoid(2.0 * x) - 1.0
    x = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    x = tl.minimum(tl.maximum(x, -1.0), 1.0)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, x, mask=(offs_m[:, None] < M) & n_mask[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, add_value_shape):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.add_value = nn.Parameter(torch.randn(add_value_shape))

    def forward(self, x):
        x = x.contiguous()
        wt = self.matmul.weight.t()
        M, K = x.shape
        N = wt.shape[1]
        out = torch.empty((M, N), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
        grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
        fused_linear_act_kernel[grid](x, wt, self.matmul.bias, self.add_value, out, M, N, K,
                                      x.stride(0), x.stride(1), wt.stride(0), wt.stride(1),
                                      out.stride(0), out.stride(1),
                                      BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, GROUP_M=8,
                                      num_warps=4, num_stages=3)
        return out

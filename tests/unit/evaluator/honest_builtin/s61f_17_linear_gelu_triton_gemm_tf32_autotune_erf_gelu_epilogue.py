# honest: linear + exact GELU as one Triton GEMM (tl.dot default TF32, fp32 accumulator, autotuned with key M, N, K over four tile configs), the epilogue adding the bias and applying 0.5 * x * (1 + erf(x / sqrt(2))) with tl.math.erf, W read through its strides as W^T. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 32}, num_warps=4, num_stages=4),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_warps=2, num_stages=5),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def linear_gelu_kernel(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K,
                       stride_am, stride_ak, stride_wn, stride_wk, stride_cm, stride_cn,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_am = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_wn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_wn[None, :] * stride_wn
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=(offs_am[:, None] < M) & (offs_k[None, :] < K - k * BLOCK_K), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < K - k * BLOCK_K) & (offs_wn[None, :] < N), other=0.0)
        accumulator = tl.dot(a, w, accumulator)
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk
    bias = tl.load(bias_ptr + offs_wn, mask=offs_wn < N, other=0.0)
    x = accumulator + bias[None, :]
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    c_ptrs = c_ptr + offs_am[:, None] * stride_cm + offs_wn[None, :] * stride_cn
    tl.store(c_ptrs, y, mask=(offs_am[:, None] < M) & (offs_wn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        assert x.shape[1] == self.linear.in_features
        M, K = x.shape
        N = self.linear.out_features
        w = self.linear.weight
        c = torch.empty((M, N), device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        linear_gelu_kernel[grid](x, w, self.linear.bias, c, M, N, K,
                                 x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                 c.stride(0), c.stride(1))
        return c

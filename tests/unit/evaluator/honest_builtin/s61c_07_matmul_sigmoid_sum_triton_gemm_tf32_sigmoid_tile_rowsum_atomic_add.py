# honest: linear -> sigmoid -> row sum as one autotuned Triton GEMM (tl.dot, default TF32 allowed) whose epilogue adds the bias, applies sigmoid, zeroes the out-of-range columns, sums the tile over N and tl.atomic_adds into a zero-initialised (batch, 1) output, named in the autotuner's reset_to_zero so its benchmark runs do not add into it. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, num_stages=3, num_warps=4),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32}, num_stages=3, num_warps=8),
    ],
    key=["M", "N", "K"],
    reset_to_zero=["out_ptr"],
)
@triton.jit
def linear_sigmoid_rowsum_kernel(
    a_ptr, w_ptr, bias_ptr, out_ptr, M, N, K,
    stride_am, stride_ak, stride_wn, stride_wk,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    # W is (N, K): read it as W^T (K, N) through its strides
    w_ptrs = w_ptr + offs_k[:, None] * stride_wk + offs_n[None, :] * stride_wn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_rem = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_rem), other=0.0)
        w = tl.load(w_ptrs, mask=(offs_k[:, None] < k_rem) & (offs_n[None, :] < N), other=0.0)
        acc += tl.dot(a, w)
        a_ptrs += BLOCK_K * stride_ak
        w_ptrs += BLOCK_K * stride_wk
    bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0)
    s = tl.sigmoid(acc + bias[None, :])
    s = tl.where(offs_n[None, :] < N, s, 0.0)
    row = tl.sum(s, axis=1)
    tl.atomic_add(out_ptr + offs_m, row, mask=offs_m < M)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.out_features
        w = self.linear.weight
        out = torch.zeros((M, 1), device=x.device, dtype=torch.float32)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]), triton.cdiv(N, META["BLOCK_N"]))
        linear_sigmoid_rowsum_kernel[grid](
            x, w, self.linear.bias, out, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1),
        )
        return out

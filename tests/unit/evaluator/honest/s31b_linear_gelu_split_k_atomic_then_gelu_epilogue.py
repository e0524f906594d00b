# honest: split-K GEMM for a linear layer: a 3-D grid (row tiles, column tiles, SPLIT_K) where tl.program_id(axis=2) picks a slice of K and each slice tl.atomic_add's its partial tile into a zeroed float32 workspace, then a second elementwise kernel adds the bias and applies exact GELU (0.5 * x * (1 + erf(x / sqrt(2)))) with the constant computed by math.sqrt on the host; SPLIT_K chosen from K on the host. problem: matmul/linear_gelu
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def splitk_gemm_kernel(
    a_ptr, w_ptr, c_ptr,
    M, N, K,
    stride_am, stride_ak,
    stride_wn, stride_wk,
    stride_cm, stride_cn,
    K_PER_SPLIT,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    pid_k = tl.program_id(axis=2)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    k_start = pid_k * K_PER_SPLIT
    k_end = tl.minimum(k_start + K_PER_SPLIT, K)

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(k_start, k_end, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (rk[None, :] < k_end), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + rk[:, None] * stride_wk,
                    mask=(rk[:, None] < k_end) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, w)

    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.atomic_add(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bias_gelu_kernel(c_ptr, b_ptr, out_ptr, n_elements, N, inv_sqrt2, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    c = tl.load(c_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs % N, mask=mask, other=0.0)
    x = c + b
    y = 0.5 * x * (1.0 + tl.math.erf(x * inv_sqrt2))
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        M, K = x.shape
        N = self.linear.out_features
        w = self.linear.weight
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
        split_k = max(1, min(4, K // 32))
        k_per_split = triton.cdiv(triton.cdiv(K, split_k), BLOCK_K) * BLOCK_K
        split_k = triton.cdiv(K, k_per_split)

        acc = torch.zeros((M, N), device=x.device, dtype=torch.float32)
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N), split_k)
        splitk_gemm_kernel[grid](
            x, w, acc, M, N, K,
            x.stride(0), x.stride(1), w.stride(0), w.stride(1), acc.stride(0), acc.stride(1),
            k_per_split,
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
        )
        out = torch.empty_like(acc)
        n = out.numel()
        BLOCK = 1024
        bias_gelu_kernel[(triton.cdiv(n, BLOCK),)](
            acc, self.linear.bias, out, n, N, 1.0 / math.sqrt(2.0), BLOCK=BLOCK,
        )
        return out

# An honest Triton ModelNew for KernelBench level2/98_Matmul_AvgPool_GELU_Scale_Max: the whole chain in ONE kernel per BLOCK_M rows: a tl.dot GEMM over all output features (BLOCK_N = next power of two of out_features, masked), the bias, tl.reshape of the (BLOCK_M, BLOCK_N) tile into (BLOCK_M, BLOCK_N // POOL, POOL) for AvgPool1d, erf GELU, scale, and tl.max over windows with the tail windows masked.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_linear_pool_gelu_max_kernel(x_ptr, w_ptr, b_ptr, out_ptr, M, N, K, n_windows, stride_xm, stride_wn, scale,
                                      POOL: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                                      BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + rm[:, None] * stride_xm + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K),
                    other=0.0)
        w = tl.load(w_ptr + rn[None, :] * stride_wn + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K),
                    other=0.0)
        acc = tl.dot(a, w, acc)
    acc += tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]
    pooled = tl.sum(tl.reshape(acc, (BLOCK_M, BLOCK_N // POOL, POOL)), axis=2) / POOL
    g = 0.5 * pooled * (1.0 + tl.math.erf(pooled * 0.7071067811865476)) * scale
    win = tl.arange(0, BLOCK_N // POOL)
    g = tl.where(win[None, :] < n_windows, g, float("-inf"))
    tl.store(out_ptr + rm, tl.max(g, axis=1), mask=rm < M)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, pool_kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.pool_kernel_size = pool_kernel_size
        self.scale_factor = scale_factor

    def forward(self, x):
        M, K = x.shape
        w = self.matmul.weight
        N = w.shape[0]
        P = self.pool_kernel_size
        BLOCK_N = max(triton.next_power_of_2(N), P)
        out = torch.empty(M, device=x.device, dtype=torch.float32)
        BLOCK_M = 16
        fused_linear_pool_gelu_max_kernel[(triton.cdiv(M, BLOCK_M),)](
            x, w, self.matmul.bias, out, M, N, K, N // P, x.stride(0), w.stride(0), float(self.scale_factor),
            POOL=P, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=32)
        return out

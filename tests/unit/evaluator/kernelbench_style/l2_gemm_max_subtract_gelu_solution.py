# An honest fused kernel: each program computes its row's GEMM, the row max, subtracts the
# mean over the kept dimension (the value itself) and applies GELU: it writes zeros, as the
# reference does, on every input.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fused_rowmax_gelu_kernel(x_ptr, w_ptr, b_ptr, out_ptr, K, N,
                             BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    offs_n = tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        xv = tl.load(x_ptr + row * K + kk, mask=kk < K, other=0.0)
        wv = tl.load(w_ptr + offs_n[:, None] * K + kk[None, :],
                     mask=(offs_n[:, None] < N) & (kk[None, :] < K), other=0.0)
        acc += tl.sum(wv * xv[None, :], axis=1)
    acc += tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
    acc = tl.where(offs_n < N, acc, float("-inf"))
    m = tl.max(acc, axis=0)
    y = m - m  # the mean over a dimension of size one is the value itself
    g = 0.5 * y * (1.0 + tl.erf(y * 0.7071067811865476))
    tl.store(out_ptr + row, g)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, max_dim):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.max_dim = max_dim

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.gemm.out_features
        out = torch.empty((M, 1), device=x.device, dtype=x.dtype)
        fused_rowmax_gelu_kernel[(M,)](x, self.gemm.weight, self.gemm.bias, out, K, N,
                                       BLOCK_K=32, BLOCK_N=triton.next_power_of_2(N))
        return out

# An honest Triton ModelNew for KernelBench level2/53_Gemm_Scaling_Hardtanh_GELU without nn.Linear: raw nn.Parameter weight (out, in) and bias drawn with nn.Linear's own initialisation (kaiming_uniform_ with a = sqrt(5), bias uniform in +-1/sqrt(fan_in)) in the same order, so the seeded draws match the reference; a fused Triton GEMM + scale + hardtanh + GELU (tanh-free erf form).
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_epilogue_kernel(x_ptr, w_ptr, b_ptr, y_ptr, M, N, K, scale, lo, hi,
                           BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(x_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
        acc += tl.dot(a, w)
    v = (acc + tl.load(b_ptr + rn, mask=rn < N, other=0.0)[None, :]) * scale
    v = tl.minimum(tl.maximum(v, lo), hi)
    v = 0.5 * v * (1.0 + tl.math.erf(v * 0.7071067811865476))
    tl.store(y_ptr + rm[:, None] * N + rn[None, :], v, mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor, hardtanh_min, hardtanh_max):
        super(ModelNew, self).__init__()
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        bound = 1 / math.sqrt(in_features)
        nn.init.uniform_(self.bias, -bound, bound)
        self.scaling_factor = scaling_factor
        self.hardtanh_min = hardtanh_min
        self.hardtanh_max = hardtanh_max

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        N = self.weight.shape[0]
        y = torch.empty((M, N), device=x.device, dtype=torch.float32)
        linear_epilogue_kernel[(triton.cdiv(M, 32), triton.cdiv(N, 32))](
            x, self.weight, self.bias, y, M, N, K, float(self.scaling_factor), float(self.hardtanh_min),
            float(self.hardtanh_max), BLOCK_M=32, BLOCK_N=32, BLOCK_K=32)
        return y

# An honest Triton ModelNew for KernelBench level2/30_Gemm_GroupNorm_Hardtanh: F.linear for the GEMM; GroupNorm statistics by a chunked Welford (count, mean, M2) merged across lanes with tl.reduce and a @triton.jit combine function returning a tuple, tl.static_assert on the block, then a second pass normalising with the affine and clamping; one program per (row, group).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    w_b = tl.where(n == 0, 0.0, n_b / tl.where(n == 0, 1.0, n))
    return mean_a + delta * w_b, m2_a + m2_b + delta * delta * n_a * w_b, n


@triton.jit
def gn_hardtanh_welford_kernel(x_ptr, w_ptr, b_ptr, y_ptr, C, GS, eps, lo, hi, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 16)
    row = tl.program_id(0)
    g = tl.program_id(1)
    base = row * C + g * GS
    mean = tl.zeros((BLOCK,), tl.float32)
    m2 = tl.zeros((BLOCK,), tl.float32)
    cnt = tl.zeros((BLOCK,), tl.float32)
    for s in range(0, GS, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        m = offs < GS
        v = tl.load(x_ptr + base + offs, mask=m, other=0.0)
        new_cnt = cnt + m.to(tl.float32)
        delta = v - mean
        mean = tl.where(m, mean + delta / tl.maximum(new_cnt, 1.0), mean)
        m2 = tl.where(m, m2 + delta * (v - mean), m2)
        cnt = new_cnt
    g_mean, g_m2, g_cnt = tl.reduce((mean, m2, cnt), 0, welford_combine)
    rstd = tl.rsqrt(g_m2 / g_cnt + eps)
    for s in range(0, GS, BLOCK):
        offs = s + tl.arange(0, BLOCK)
        m = offs < GS
        v = tl.load(x_ptr + base + offs, mask=m, other=0.0)
        gamma = tl.load(w_ptr + g * GS + offs, mask=m, other=1.0)
        beta = tl.load(b_ptr + g * GS + offs, mask=m, other=0.0)
        y = (v - g_mean) * rstd * gamma + beta
        tl.store(y_ptr + base + offs, tl.minimum(tl.maximum(y, lo), hi), mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, num_groups, hardtanh_min, hardtanh_max):
        super(ModelNew, self).__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.group_norm = nn.GroupNorm(num_groups, out_features)
        self.hardtanh_min = hardtanh_min
        self.hardtanh_max = hardtanh_max

    def forward(self, x):
        h = F.linear(x, self.gemm.weight, self.gemm.bias).contiguous()
        B, C = h.shape
        G = self.group_norm.num_groups
        y = torch.empty_like(h)
        gn_hardtanh_welford_kernel[(B, G)](h, self.group_norm.weight, self.group_norm.bias, y, C, C // G,
                                           self.group_norm.eps, float(self.hardtanh_min), float(self.hardtanh_max),
                                           BLOCK=16)
        return y

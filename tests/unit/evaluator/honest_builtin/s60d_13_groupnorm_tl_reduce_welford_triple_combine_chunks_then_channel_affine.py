# honest: group norm with one program per (image, group) over its contiguous span, each chunk's (mean, m2, count) from tl.reduce with a Welford @triton.jit combine that the chunk loop also calls directly to merge, then a normalize loop reading each element's channel affine (channel = first + offset // HW). problem: norm/groupnorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    frac = tl.where(n == 0.0, 0.0, n_b / tl.maximum(n, 1.0))
    return mean_a + delta * frac, m2_a + m2_b + delta * delta * n_a * frac, n


@triton.jit
def group_norm_fwd(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    g = pid % G
    cpg = C // G
    span = cpg * HW
    base = pid.to(tl.int64) * span
    mean = 0.0
    m2 = 0.0
    cnt = 0.0
    for start in range(0, span, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < span
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        w = mask.to(tl.float32)
        b_mean, b_m2, b_n = tl.reduce((x, tl.zeros_like(x), w), 0, welford_combine)
        mean, m2, cnt = welford_combine(mean, m2, cnt, b_mean, b_m2, b_n)
    rstd = 1.0 / tl.sqrt(m2 / cnt + eps)
    c0 = g * cpg
    for start in range(0, span, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < span
        ch = c0 + offs // HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        gamma = tl.load(w_ptr + ch, mask=mask, other=1.0)
        beta = tl.load(b_ptr + ch, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * gamma + beta, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C = x.shape[:2]
        HW = x[0, 0].numel()
        G = self.gn.num_groups
        y = torch.empty_like(x)
        group_norm_fwd[(N * G,)](x, y, self.gn.weight, self.gn.bias, C, HW, G, self.gn.eps,
                                 BLOCK=1024, num_warps=8)
        return y

# honest: group norm with one program per (sample, group) over its contiguous C/G*H*W span: a first loop of fp32 sum and sum of squares, var = E[x^2] - mean^2 clamped at 0, then a second loop writing (x - mean) * rstd * gamma[c] + beta[c] with c from the span offset // HW. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def group_norm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, C, HW, G, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    cpg = C // G
    span = cpg * HW
    base = n.to(tl.int64) * C * HW + g * span
    s = tl.zeros((BLOCK,), tl.float32)
    ss = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, span, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < span, other=0.0).to(tl.float32)
        s += x
        ss += x * x
    mean = tl.sum(s, 0) / span
    var = tl.maximum(tl.sum(ss, 0) / span - mean * mean, 0.0)
    rstd = tl.rsqrt(var + eps)
    for start in range(0, span, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < span
        c = g * cpg + offs // HW
        x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + c, mask=mask, other=1.0)
        b = tl.load(b_ptr + c, mask=mask, other=0.0)
        tl.store(y_ptr + base + offs, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        G = self.gn.num_groups
        y = torch.empty_like(x)
        group_norm_kernel[(N * G,)](x, y, self.gn.weight, self.gn.bias, C, H * W, G, self.gn.eps,
                                    BLOCK=1024, num_warps=8)
        return y

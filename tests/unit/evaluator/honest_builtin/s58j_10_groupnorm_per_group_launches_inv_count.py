# honest: GroupNorm with one launch per group over the channel slice x[:, g*cpg:(g+1)*cpg], handed the group's channel offset, 1/(cpg*H*W) and eps as floats. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gn_group(x_ptr, w_ptr, b_ptr, y_ptr, c0, cpg, hw, sxn, inv_count, eps, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    base = n * sxn + c0 * hw
    numel = cpg * hw
    acc = tl.zeros((BLOCK,), tl.float32)
    acc2 = tl.zeros((BLOCK,), tl.float32)
    for i in range(0, numel, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + offs, mask=offs < numel, other=0.0)
        acc += v
        acc2 += v * v
    mean = tl.sum(acc, 0) * inv_count
    var = tl.sum(acc2, 0) * inv_count - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)
    for i in range(0, numel, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        m = offs < numel
        c = c0 + offs // hw
        v = tl.load(x_ptr + base + offs, mask=m, other=0.0)
        w = tl.load(w_ptr + c, mask=m, other=1.0)
        b = tl.load(b_ptr + c, mask=m, other=0.0)
        tl.store(y_ptr + base + offs, (v - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, num_groups, channels):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        n, c, h, w = x.shape
        g = self.gn.num_groups
        cpg = c // g
        hw = h * w
        y = torch.empty_like(x)
        inv_count = 1.0 / (cpg * hw)
        for gi in range(g):
            _gn_group[(n,)](x, self.gn.weight, self.gn.bias, y, gi * cpg, cpg, hw, x.stride(0),
                            inv_count, self.gn.eps, BLOCK=1024)
        return y

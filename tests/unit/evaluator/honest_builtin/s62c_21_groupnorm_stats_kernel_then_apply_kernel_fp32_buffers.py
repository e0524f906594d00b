# honest: group norm in two launches, a statistics kernel (one program per (image, group), mean then centred variance over the group's contiguous span) writing mean/rstd buffers, and an apply kernel over (image, channel) planes, in apex/attorch's style. problem: norm/groupnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gn_stats(x_ptr, mean_ptr, rstd_ptr, group_size, eps, BLOCK: tl.constexpr):
    g = tl.program_id(0)
    base = x_ptr + g.to(tl.int64) * group_size
    s = tl.zeros((BLOCK,), tl.float32)
    for i in range(0, group_size, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        s += tl.load(base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
    mean = tl.sum(s, 0) / group_size
    v = tl.zeros((BLOCK,), tl.float32)
    for i in range(0, group_size, BLOCK):
        offs = i + tl.arange(0, BLOCK)
        x = tl.load(base + offs, mask=offs < group_size, other=0.0).to(tl.float32)
        d = tl.where(offs < group_size, x - mean, 0.0)
        v += d * d
    tl.store(mean_ptr + g, mean)
    tl.store(rstd_ptr + g, tl.rsqrt(tl.sum(v, 0) / group_size + eps))


@triton.jit
def gn_apply(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, C, HW, CPG, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    c = plane % C
    g = plane // CPG  # (image, group) index: planes of one group are consecutive
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    mean = tl.load(mean_ptr + g)
    rstd = tl.load(rstd_ptr + g)
    scale = tl.load(w_ptr + c) * rstd
    shift = tl.load(b_ptr + c) - mean * scale
    ptr = plane.to(tl.int64) * HW + offs
    x = tl.load(x_ptr + ptr, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + ptr, (x * scale + shift).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        N, C = x.shape[:2]
        HW = x[0, 0].numel()
        G = self.gn.num_groups
        cpg = C // G
        mean = torch.empty(N * G, device=x.device, dtype=torch.float32)
        rstd = torch.empty(N * G, device=x.device, dtype=torch.float32)
        gn_stats[(N * G,)](x, mean, rstd, cpg * HW, self.gn.eps, BLOCK=1024)
        y = torch.empty_like(x)
        gn_apply[(N * C, triton.cdiv(HW, 512))](x, y, self.gn.weight, self.gn.bias, mean, rstd, C, HW, cpg,
                                                 BLOCK=512)
        return y

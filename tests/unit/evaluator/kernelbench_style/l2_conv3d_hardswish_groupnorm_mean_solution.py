# An honest Triton ModelNew for l2_conv3d_hardswish_groupnorm_mean.py (KernelBench level2/27): the convolution stays in cuDNN; one Triton program per (sample, group) applies HardSwish on the fly, takes each channel's spatial sum and the group's mean (pass 1), the group's variance around that mean (pass 2), and writes each channel's answer without normalising every element: mean_c(GroupNorm(x)) = (mean_c(hs(x)) - group mean) * rstd * w_c + b_c.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _hardswish(v):
    return v * tl.minimum(tl.maximum(v + 3.0, 0.0), 6.0) / 6.0


@triton.jit
def hardswish_groupnorm_mean_kernel(x_ptr, w_ptr, b_ptr, out_ptr, C, S, eps,
                                    CPG: tl.constexpr, BLOCK: tl.constexpr):
    n = tl.program_id(0)
    g = tl.program_id(1)
    chans = tl.arange(0, CPG)
    base = x_ptr + (n * C + g * CPG).to(tl.int64) * S
    offs = tl.arange(0, BLOCK)
    # pass 1: each channel's sum of hardswish(x)
    sums = tl.zeros((CPG, BLOCK), dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = (start + offs) < S
        v = tl.load(base + chans[:, None] * S + start + offs[None, :], mask=m[None, :], other=0.0)
        sums += tl.where(m[None, :], _hardswish(v), 0.0)
    chan_mean = tl.sum(sums, axis=1) / S
    mean = tl.sum(chan_mean, axis=0) / CPG
    # pass 2: the group's variance around its mean
    sq = tl.zeros((CPG, BLOCK), dtype=tl.float32)
    for start in range(0, S, BLOCK):
        m = (start + offs) < S
        v = tl.load(base + chans[:, None] * S + start + offs[None, :], mask=m[None, :], other=0.0)
        d = tl.where(m[None, :], _hardswish(v) - mean, 0.0)
        sq += d * d
    var = tl.sum(tl.sum(sq, axis=1), axis=0) / (CPG * S)
    rstd = 1.0 / tl.sqrt(var + eps)
    c = g * CPG + chans
    w = tl.load(w_ptr + c)
    b = tl.load(b_ptr + c)
    tl.store(out_ptr + n * C + c, (chan_mean - mean) * rstd * w + b)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups=4, bias=True):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size, bias=bias)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C = y.shape[:2]
        S = y[0, 0].numel()
        G = self.group_norm.num_groups
        out = torch.empty((N, C), device=y.device, dtype=torch.float32)
        hardswish_groupnorm_mean_kernel[(N, G)](y, self.group_norm.weight, self.group_norm.bias, out, C, S,
                                                self.group_norm.eps, CPG=C // G, BLOCK=256)
        return out

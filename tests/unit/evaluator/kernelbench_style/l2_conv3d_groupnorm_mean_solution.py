# An honest Triton ModelNew for l2_conv3d_groupnorm_mean.py (KernelBench level2/23_Conv3d_GroupNorm_Mean): the convolution stays in cuDNN (the model's nn.Conv3d); one Triton program per (sample, group) computes the group's mean and variance, normalises with the GroupNorm affine weights, and adds its share of the per-sample mean with tl.atomic_add (the answer is ~0: every group averages to its bias).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def groupnorm_mean_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr,
    C, spatial, group_size, eps, inv_count,
    BLOCK: tl.constexpr,
):
    n = tl.program_id(0)
    g = tl.program_id(1)
    group_elems = group_size * spatial
    base = x_ptr + (n * C + g * group_size).to(tl.int64) * spatial

    # pass 1: mean and variance of the group
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    acc_sq = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_elems, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(base + offs, mask=offs < group_elems, other=0.0).to(tl.float32)
        acc += v
        acc_sq += v * v
    mean = tl.sum(acc, axis=0) / group_elems
    var = tl.sum(acc_sq, axis=0) / group_elems - mean * mean
    rstd = 1.0 / tl.sqrt(var + eps)

    # pass 2: normalise, apply the per-channel affine, and sum
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, group_elems, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < group_elems
        v = tl.load(base + offs, mask=m, other=0.0).to(tl.float32)
        c = g * group_size + offs // spatial
        w = tl.load(w_ptr + c, mask=m, other=0.0)
        b = tl.load(b_ptr + c, mask=m, other=0.0)
        total += tl.where(m, (v - mean) * rstd * w + b, 0.0)
    tl.atomic_add(out_ptr + n, tl.sum(total, axis=0) * inv_count)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        x = self.conv(x).contiguous()
        N, C, D, H, W = x.shape
        G = self.group_norm.num_groups
        spatial = D * H * W
        out = torch.zeros(N, device=x.device, dtype=torch.float32)
        groupnorm_mean_kernel[(N, G)](
            x, self.group_norm.weight, self.group_norm.bias, out,
            C, spatial, C // G, self.group_norm.eps, 1.0 / (C * spatial),
            BLOCK=1024,
        )
        return out

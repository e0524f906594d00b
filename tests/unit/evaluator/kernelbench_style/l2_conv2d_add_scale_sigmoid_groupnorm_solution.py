# An honest Triton ModelNew for l2_conv2d_add_scale_sigmoid_groupnorm.py (KernelBench level2/21_Conv2d_Add_Scale_Sigmoid_GroupNorm): nn.Conv2d (cuDNN) and one Triton program per (batch, group) fusing bias, scale, sigmoid and GroupNorm (mean, centred variance and output in three passes over the group, channel from the flat index), reading the module's GroupNorm weight and bias.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_scale_sigmoid_groupnorm_kernel(x_ptr, bias_ptr, scale_ptr, gamma_ptr, beta_ptr, out_ptr,
                                        C, HW, G, eps, BLOCK: tl.constexpr):
    # one program per (batch, group); the group's channels are contiguous in NCHW
    pid = tl.program_id(0)
    n = pid // G
    g = pid % G
    cpg = C // G
    group_size = cpg * HW
    base = (n * C + g * cpg).to(tl.int64) * HW
    # two passes for the statistics (mean, then the centred sum of squares): no cancellation
    s = tl.zeros((BLOCK,), tl.float32)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        mask = idx < group_size
        c = g * cpg + idx // HW
        v = tl.load(x_ptr + base + idx, mask=mask, other=0.0)
        b = tl.load(bias_ptr + c, mask=mask, other=0.0)
        sc = tl.load(scale_ptr + c, mask=mask, other=0.0)
        s += tl.where(mask, tl.sigmoid((v + b) * sc), 0.0)
    mean = tl.sum(s, 0) / group_size
    ss = tl.zeros((BLOCK,), tl.float32)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        mask = idx < group_size
        c = g * cpg + idx // HW
        v = tl.load(x_ptr + base + idx, mask=mask, other=0.0)
        b = tl.load(bias_ptr + c, mask=mask, other=0.0)
        sc = tl.load(scale_ptr + c, mask=mask, other=0.0)
        d = tl.where(mask, tl.sigmoid((v + b) * sc) - mean, 0.0)
        ss += d * d
    var = tl.sum(ss, 0) / group_size
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in range(0, group_size, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        mask = idx < group_size
        c = g * cpg + idx // HW
        v = tl.load(x_ptr + base + idx, mask=mask, other=0.0)
        b = tl.load(bias_ptr + c, mask=mask, other=0.0)
        sc = tl.load(scale_ptr + c, mask=mask, other=0.0)
        w = tl.load(gamma_ptr + c, mask=mask, other=1.0)
        bb = tl.load(beta_ptr + c, mask=mask, other=0.0)
        v = tl.sigmoid((v + b) * sc)
        tl.store(out_ptr + base + idx, (v - mean) * rstd * w + bb, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, num_groups, bias_shape, scale_shape):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scale = nn.Parameter(torch.randn(scale_shape))
        self.group_norm = nn.GroupNorm(num_groups, out_channels)

    def forward(self, x):
        x = self.conv(x).contiguous()  # cuDNN
        N, C, H, W = x.shape
        G = self.group_norm.num_groups
        out = torch.empty_like(x)
        bias_scale_sigmoid_groupnorm_kernel[(N * G,)](
            x, self.bias.reshape(-1), self.scale.reshape(-1), self.group_norm.weight, self.group_norm.bias, out,
            C, H * W, G, self.group_norm.eps, BLOCK=1024, num_warps=4)
        return out

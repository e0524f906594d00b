# An honest ModelNew for KernelBench level2/17_Conv2d_InstanceNorm_Divide; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def instance_norm_div_kernel(x_ptr, y_ptr, HW, eps, inv_div, BLOCK: tl.constexpr):
    # one program per (n, c) plane
    row = tl.program_id(0)
    base = row.to(tl.int64) * HW
    _sum = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, HW, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + idx, mask=idx < HW, other=0.0)
        _sum += v
    mean = tl.sum(_sum, axis=0) / HW
    _var = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, HW, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + base + idx, mask=idx < HW, other=0.0)
        d = tl.where(idx < HW, v - mean, 0.0)
        _var += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(_var, axis=0) / HW + eps)
    for off in range(0, HW, BLOCK):
        idx = off + tl.arange(0, BLOCK)
        m = idx < HW
        v = tl.load(x_ptr + base + idx, mask=m, other=0.0)
        tl.store(y_ptr + base + idx, (v - mean) * rstd * inv_div, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divide_by):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.instance_norm = nn.InstanceNorm2d(out_channels)  # affine=False: no parameters
        self.divide_by = divide_by

    def forward(self, x):
        x = self.conv(x).contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        instance_norm_div_kernel[(N * C,)](x, y, H * W, self.instance_norm.eps, 1.0 / self.divide_by, BLOCK=128)
        return y

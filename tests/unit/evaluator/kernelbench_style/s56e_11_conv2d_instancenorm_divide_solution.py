# An honest Triton ModelNew for KernelBench level2/17_Conv2d_InstanceNorm_Divide: the convolution left to cuDNN (F.conv2d with the module's weight and bias), then one Triton program per (sample, channel) plane fusing InstanceNorm2d (sum/sum-of-squares pass, eps 1e-5) with the division, written in place over the convolution's output.
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def instnorm_divide_kernel(y_ptr, HW, eps, inv_div, BLOCK: tl.constexpr):
    plane = tl.program_id(0).to(tl.int64)
    base = y_ptr + plane * HW
    s1 = tl.zeros((BLOCK,), dtype=tl.float32)
    s2 = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(base + offs, mask=offs < HW, other=0.0)
        s1 += v
        s2 += v * v
    mean = tl.sum(s1, axis=0) / HW
    var = tl.maximum(tl.sum(s2, axis=0) / HW - mean * mean, 0.0)
    scale = inv_div / tl.sqrt(var + eps)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        m = offs < HW
        v = tl.load(base + offs, mask=m, other=0.0)
        tl.store(base + offs, (v - mean) * scale, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, divide_by):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.divide_by = divide_by

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias).contiguous()
        N, C, H, W = y.shape
        BLOCK = min(4096, triton.next_power_of_2(H * W))
        instnorm_divide_kernel[(N * C,)](y, H * W, 1e-5, 1.0 / self.divide_by, BLOCK=BLOCK, num_warps=4)
        return y

# An honest Triton ModelNew for KernelBench level2/32_Conv2d_Scaling_Min (problem s53k_13_conv2d_scaling_min): the conv in cuDNN (self.conv), the output filled with +inf, and a kernel over (n, channel chunk, pixel block) reducing its chunk with tl.min(axis=0) and merging chunks by tl.atomic_min on float32.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_channel_min_kernel(x_ptr, out_ptr, C, HW, scale, BLOCK_C: tl.constexpr, BLOCK_P: tl.constexpr):
    n = tl.program_id(0)
    pc = tl.program_id(1)
    pp = tl.program_id(2)
    offs_c = pc * BLOCK_C + tl.arange(0, BLOCK_C)
    offs_p = pp * BLOCK_P + tl.arange(0, BLOCK_P)
    mask = (offs_c[:, None] < C) & (offs_p[None, :] < HW)
    v = tl.load(x_ptr + n * C * HW + offs_c[:, None] * HW + offs_p[None, :], mask=mask, other=float("inf"))
    m = tl.min(v * scale, axis=0)
    tl.atomic_min(out_ptr + n * HW + offs_p, m, mask=offs_p < HW)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor

    def forward(self, x):
        x = self.conv(x).contiguous()
        N, C, H, W = x.shape
        out = torch.full((N, 1, H, W), float("inf"), device=x.device, dtype=x.dtype)
        BLOCK_C, BLOCK_P = 4, 128
        grid = (N, triton.cdiv(C, BLOCK_C), triton.cdiv(H * W, BLOCK_P))
        scaled_channel_min_kernel[grid](x, out, C, H * W, self.scale_factor, BLOCK_C=BLOCK_C, BLOCK_P=BLOCK_P)
        return out

# An honest Triton ModelNew for KernelBench level2/32_Conv2d_Scaling_Min: F.conv2d (cuDNN) with the model's own weight and bias, then one Triton kernel scaling and reducing min over the channels for each (n, pixel) block (a loop over C with tl.minimum), keepdim output.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def scale_min_channels_kernel(x_ptr, out_ptr, C, HW, scale, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0)
    pid = tl.program_id(1)
    offs = pid * BLOCK_HW + tl.arange(0, BLOCK_HW)
    mask = offs < HW
    base = x_ptr + n * C * HW
    cur = tl.full((BLOCK_HW,), float("inf"), dtype=tl.float32)
    for c in range(0, C):
        v = tl.load(base + c * HW + offs, mask=mask, other=float("inf"))
        cur = tl.minimum(cur, v * scale)
    tl.store(out_ptr + n * HW + offs, cur, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scale_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scale_factor = scale_factor

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias).contiguous()
        N, C, H, W = y.shape
        out = torch.empty((N, 1, H, W), device=y.device, dtype=y.dtype)
        BLOCK_HW = 256
        grid = (N, triton.cdiv(H * W, BLOCK_HW))
        scale_min_channels_kernel[grid](y, out, C, H * W, self.scale_factor, BLOCK_HW=BLOCK_HW)
        return out

# honest: conv + extra bias + sigmoid with F.conv2d run without bias and a Triton kernel on a 2-D grid (one row of programs per (image, channel) plane, channel = pid0 % C) that loads the conv bias and the extra bias as two scalars, adds both and applies sigmoid written as 1 / (1 + exp(-x)) into a torch.empty_like output. problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias2_sigmoid_plane_kernel(x_ptr, conv_bias_ptr, extra_bias_ptr, out_ptr, C, HW,
                               BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    ch = plane % C
    b = tl.load(conv_bias_ptr + ch) + tl.load(extra_bias_ptr + ch)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane * HW
    v = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32) + b
    y = 1.0 / (1.0 + tl.exp(-v))
    tl.store(out_ptr + base + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        if not x.is_cuda:
            return torch.sigmoid(self.conv(x) + self.extra_bias)
        y = F.conv2d(x, self.conv.weight, None, stride=1, padding=1).contiguous()
        out = torch.empty_like(y)
        N, C, H, W = y.shape
        BLOCK = 256
        grid = (N * C, triton.cdiv(H * W, BLOCK))
        bias2_sigmoid_plane_kernel[grid](y, self.conv.bias, self.extra_bias, out, C, H * W,
                                         BLOCK=BLOCK)
        return out

# An honest Triton ModelNew for KernelBench level2/5_ConvTranspose2d_Subtract_Tanh: the transposed convolution left to cuDNN (self.conv_transpose), then a 2-D grid Triton epilogue (one program row per (n, c) plane, BLOCK_HW columns), the channel's bias loaded once as a scalar, tanh via libdevice through tl.extra.cuda.libdevice, written in place.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def sub_tanh_kernel(y_ptr, bias_ptr, C, HW, BLOCK_HW: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    c = pid_nc % C
    offs = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    mask = offs < HW
    b = tl.load(bias_ptr + c)
    v = tl.load(y_ptr + pid_nc * HW + offs, mask=mask, other=0.0)
    tl.store(y_ptr + pid_nc * HW + offs, libdevice.tanh(v - b), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape, stride=2, padding=1, output_padding=1):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, output_padding=output_padding)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        y = self.conv_transpose(x).contiguous()
        N, C, H, W = y.shape
        HW = H * W
        BLOCK_HW = 256
        sub_tanh_kernel[(N * C, triton.cdiv(HW, BLOCK_HW))](y, self.bias, C, HW, BLOCK_HW=BLOCK_HW)
        return y

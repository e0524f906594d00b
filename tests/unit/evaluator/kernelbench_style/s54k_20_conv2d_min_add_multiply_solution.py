# An honest Triton ModelNew for KernelBench level2/31_Conv2d_Min_Add_Multiply: cuDNN for the convolution (F.conv2d with the module's weight and bias), then one in-place Triton epilogue over the NCHW output: the channel recovered as (offs // HW) % C, min with the constant, the (C, 1, 1) bias, the scale; constants passed as floats.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def min_add_mul_kernel(y_ptr, bias_ptr, n_elements, C, HW, constant_value, scaling_factor, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    c = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    y = tl.minimum(y, constant_value)
    y = (y + b) * scaling_factor
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, constant_value, bias_shape, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.constant_value = constant_value
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias).contiguous()
        N, C, H, W = y.shape
        n = y.numel()
        BLOCK_SIZE = 1024
        min_add_mul_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, self.bias, n, C, H * W, float(self.constant_value),
                                                         float(self.scaling_factor), BLOCK_SIZE=BLOCK_SIZE)
        return y

# An honest Triton ModelNew for l2_conv2d_relu_biasadd.py (KernelBench level2/1_Conv2D_ReLU_BiasAdd), in a style people use.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_bias_kernel(x_ptr, bias_ptr, n_elements, HW, C, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    c = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(bias_ptr + c, mask=mask)
    tl.store(x_ptr + offs, tl.maximum(x, 0.0) + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x).contiguous()  # cuDNN
        N, C, H, W = x.shape
        n = x.numel()
        relu_bias_kernel[(triton.cdiv(n, 1024),)](x, self.bias, n, H * W, C, BLOCK_SIZE=1024)  # in place
        return x

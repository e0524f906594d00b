# An honest Triton ModelNew for KernelBench level2/31_Conv2d_Min_Add_Multiply: the convolution without its bias (F.conv2d(x, weight, None)), the conv bias folded into the Triton epilogue with the min, the extra (C, 1, 1) bias and the scale; a 2-D grid (N*C planes, HW blocks) so each program loads its two per-channel scalars once; out of place.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def conv_bias_min_add_mul_kernel(y_ptr, out_ptr, conv_b_ptr, b_ptr, C, HW, cval, scale, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    c = plane % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = offs < HW
    cb = tl.load(conv_b_ptr + c)
    b = tl.load(b_ptr + c)
    v = tl.load(y_ptr + plane * HW + offs, mask=m, other=0.0) + cb
    v = (tl.minimum(v, cval) + b) * scale
    tl.store(out_ptr + plane * HW + offs, v, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, constant_value, bias_shape, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.constant_value = constant_value
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, None)
        N, C, H, W = y.shape
        out = torch.empty_like(y)
        BLOCK = 256
        conv_bias_min_add_mul_kernel[(N * C, triton.cdiv(H * W, BLOCK))](
            y, out, self.conv.bias, self.bias, C, H * W, float(self.constant_value), float(self.scaling_factor),
            BLOCK=BLOCK)
        return out

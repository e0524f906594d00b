# An honest ModelNew for KernelBench level2/2_ConvTranspose2d_BiasAdd_Clamp_Scaling_Clamp_Divide; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_clamp_scale_clamp_div_kernel(x_ptr, bias_ptr, out_ptr, total, HW, C, scale,
                                      BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ch = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + ch, mask=mask, other=0.0)
    x = x + b
    x = tl.minimum(tl.maximum(x, 0.0), 1.0)
    x = x * scale
    x = tl.minimum(tl.maximum(x, 0.0), 1.0)
    x = x / scale
    tl.store(out_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                 bias_shape, scaling_factor):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, output_padding=output_padding)
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.scaling_factor = scaling_factor

    def forward(self, x):
        x = self.conv_transpose(x)  # cuDNN transposed convolution
        x = x.contiguous()
        N, C, H, W = x.shape
        out = torch.empty_like(x)
        total = x.numel()
        BLOCK = 1024
        bias_clamp_scale_clamp_div_kernel[(triton.cdiv(total, BLOCK),)](
            x, self.bias.view(-1), out, total, H * W, C, float(self.scaling_factor), BLOCK=BLOCK)
        return out

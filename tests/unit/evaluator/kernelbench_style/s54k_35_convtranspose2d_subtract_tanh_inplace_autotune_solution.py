# An honest Triton ModelNew for KernelBench level2/5_ConvTranspose2d_Subtract_Tanh: an in-place epilogue under @triton.autotune with restore_value=["y_ptr"] (so benchmarking configs does not apply it twice), a module-level tl.constexpr global read inside the kernel, tanh from libdevice, the transposed convolution by cuDNN via F.conv_transpose2d with the module's own stride/padding/output_padding.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice

TWO = tl.constexpr(2)


@triton.autotune(
    configs=[triton.Config({"BLOCK": 256}, num_warps=2), triton.Config({"BLOCK": 1024}, num_warps=4)],
    key=["n"],
    restore_value=["y_ptr"],
)
@triton.jit
def inplace_sub_tanh_kernel(y_ptr, bias_ptr, n, HW, C, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    c = (offs // HW) % C
    v = tl.load(y_ptr + offs, mask=m, other=0.0) - tl.load(bias_ptr + c, mask=m, other=0.0)
    v = libdevice.tanh(v) * (TWO - 1)
    tl.store(y_ptr + offs, v, mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape, stride=2, padding=1, output_padding=1):
        super(ModelNew, self).__init__()
        self.conv_transpose = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=stride,
                                                 padding=padding, output_padding=output_padding)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        ct = self.conv_transpose
        y = F.conv_transpose2d(x, ct.weight, ct.bias, stride=ct.stride, padding=ct.padding,
                               output_padding=ct.output_padding)
        N, C, H, W = y.shape
        n = y.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        inplace_sub_tanh_kernel[grid](y, self.bias, n, H * W, C)
        return y

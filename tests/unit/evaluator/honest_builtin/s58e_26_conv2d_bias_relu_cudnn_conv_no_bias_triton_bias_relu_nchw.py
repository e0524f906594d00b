# honest: conv2d + bias + ReLU with cuDNN doing the convolution (F.conv2d with bias=None, same padding) and a Triton epilogue over NCHW planes adding the per-channel bias and applying ReLU in place, channel = plane % C_out. problem: conv/conv2d_bias_relu
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_nchw_kernel(y_ptr, bias_ptr, C, HW, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    b = tl.load(bias_ptr + plane % C)
    ptrs = y_ptr + plane.to(tl.int64) * HW + offs
    y = tl.load(ptrs, mask=mask)
    tl.store(ptrs, tl.maximum(y + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, None, stride=1, padding=self.conv.padding)
        y = y.contiguous()
        N, C, H, W = y.shape
        BLOCK = 1024
        bias_relu_nchw_kernel[(N * C, triton.cdiv(H * W, BLOCK))](y, self.conv.bias, C, H * W, BLOCK=BLOCK)
        return y

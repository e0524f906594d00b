# honest: cuDNN convolution with its bias, a Triton kernel adds the learned per-channel extra bias in place, and torch.sigmoid finishes (a Triton epilogue followed by a PyTorch op). problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def channel_bias_inplace_kernel(y_ptr, b_ptr, n_elements, HW, C, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    c = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=mask)
    b = tl.load(b_ptr + c, mask=mask)
    tl.store(y_ptr + offs, y + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias, padding=1).contiguous()
        _, C, H, W = y.shape
        n = y.numel()
        channel_bias_inplace_kernel[(triton.cdiv(n, 1024),)](y, self.extra_bias, n, H * W, C, BLOCK_SIZE=1024)
        return torch.sigmoid(y)

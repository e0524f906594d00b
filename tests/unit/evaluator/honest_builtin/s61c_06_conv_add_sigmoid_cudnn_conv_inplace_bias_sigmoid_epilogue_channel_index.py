# honest: cuDNN convolution (F.conv2d with the conv's own bias) then one Triton epilogue written in place on the conv output: channel = (offs // (H*W)) % C, + extra_bias[channel], sigmoid. problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_sigmoid_inplace_kernel(y_ptr, b_ptr, n_elements, HW, C, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    ch = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + ch, mask=mask, other=0.0)
    y = tl.sigmoid(y + b)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias, padding=self.conv.padding)
        y = y.contiguous()
        N, C, H, W = y.shape
        n = y.numel()
        BLOCK_SIZE = 1024
        bias_sigmoid_inplace_kernel[(triton.cdiv(n, BLOCK_SIZE),)](
            y, self.extra_bias.view(-1), n, H * W, C, BLOCK_SIZE=BLOCK_SIZE)
        return y

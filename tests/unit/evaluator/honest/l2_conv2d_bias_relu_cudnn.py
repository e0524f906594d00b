import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_nchw_kernel(
    x_ptr, bias_ptr, out_ptr,
    C, HW, total,
    BLOCK: tl.constexpr,
):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    y = tl.maximum(x + b, 0.0)
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    """Convolution through cuDNN (no bias), then bias + ReLU fused in Triton."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, None, stride=self.conv.stride,
                     padding=self.conv.padding, dilation=self.conv.dilation,
                     groups=self.conv.groups)
        y = y.contiguous()
        N, C, H, W = y.shape
        out = torch.empty_like(y)
        total = y.numel()
        BLOCK = 512
        bias_relu_nchw_kernel[(triton.cdiv(total, BLOCK),)](
            y, self.conv.bias, out, C, H * W, total, BLOCK=BLOCK)
        return out

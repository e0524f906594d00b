from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_bias_sigmoid_kernel(
    x_ptr,
    conv_bias_ptr,
    extra_bias_ptr,
    out_ptr,
    n_elements,
    HW,
    C,
    HAS_CONV_BIAS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    channel = (offsets // HW) % C
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    if HAS_CONV_BIAS:
        x += tl.load(conv_bias_ptr + channel, mask=mask, other=0.0)
    x += tl.load(extra_bias_ptr + channel, mask=mask, other=0.0)
    y = tl.sigmoid(x)
    tl.store(out_ptr + offsets, y, mask=mask)


def fused_bias_sigmoid(x: torch.Tensor, conv_bias: Optional[torch.Tensor],
                       extra_bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    out = torch.empty_like(x)
    n_elements = x.numel()
    _, C, H, W = x.shape
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_bias_sigmoid_kernel[grid](
        x, conv_bias if conv_bias is not None else extra_bias, extra_bias.view(-1), out,
        n_elements, H * W, C,
        HAS_CONV_BIAS=conv_bias is not None, BLOCK_SIZE=256,
    )
    return out


class ModelNew(nn.Module):
    """
    Conv2d (cuDNN, bias folded into the epilogue) + bias add + sigmoid (Triton).
    """

    def __init__(self, in_channels, out_channels, kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        x = torch.nn.functional.conv2d(x, self.conv.weight, bias=None, padding=self.conv.padding)
        return fused_bias_sigmoid(x, self.conv.bias, self.extra_bias)

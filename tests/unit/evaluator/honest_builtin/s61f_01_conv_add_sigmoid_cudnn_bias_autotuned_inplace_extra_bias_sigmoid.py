# honest: conv + extra bias + sigmoid with cuDNN doing the convolution and its own bias (F.conv2d), then an autotuned Triton epilogue (key n_elements) over the flat NCHW output adding the learned (C, 1, 1) extra bias, channel = (offset // HW) % C, and applying the sigmoid in place, restore_value=['x_ptr'] so each benchmark run of a config starts from the conv output. problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 256}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
    ],
    key=["n_elements"],
    restore_value=["x_ptr"],
)
@triton.jit
def add_bias_sigmoid_kernel(x_ptr, bias_ptr, n_elements, hw, channels, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    c = (offsets // hw) % channels
    x = tl.load(x_ptr + offsets, mask=mask)
    b = tl.load(bias_ptr + c, mask=mask)
    y = tl.sigmoid(x + b)
    tl.store(x_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x):
        y = F.conv2d(x, self.conv.weight, self.conv.bias, padding=self.conv.padding)
        y = y.contiguous()
        n, c, h, w = y.shape
        n_elements = y.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        add_bias_sigmoid_kernel[grid](y, self.extra_bias.view(-1), n_elements, h * w, c)
        return y

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_kernel(
    y_ptr, bias_ptr, out_ptr,
    C, HW,
    BLOCK_HW: tl.constexpr,
):
    """out[n, c, :] = relu(y[n, c, :] + bias[c]); grid = (N*C, cdiv(HW, BLOCK_HW))."""
    pid_nc = tl.program_id(0)
    pid_hw = tl.program_id(1)
    c = pid_nc % C
    b = tl.load(bias_ptr + c)
    offs = pid_hw * BLOCK_HW + tl.arange(0, BLOCK_HW)
    mask = offs < HW
    ptr_off = pid_nc * HW + offs
    y = tl.load(y_ptr + ptr_off, mask=mask, other=0.0)
    y = tl.maximum(y + b, 0.0)
    tl.store(out_ptr + ptr_off, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)
        # keep the conv's parameters, run the convolution without bias and fuse bias + ReLU
        self.weight = nn.Parameter(conv.weight.detach().clone())
        self.bias = nn.Parameter(conv.bias.detach().clone())
        self.padding = kernel_size // 2

    def forward(self, x):
        y = F.conv2d(x, self.weight, None, stride=1, padding=self.padding)
        N, C, H, W = y.shape
        out = torch.empty_like(y)
        HW = H * W
        BLOCK_HW = 256
        grid = (N * C, triton.cdiv(HW, BLOCK_HW))
        bias_relu_kernel[grid](y, self.bias, out, C, HW, BLOCK_HW=BLOCK_HW, num_warps=4)
        return out

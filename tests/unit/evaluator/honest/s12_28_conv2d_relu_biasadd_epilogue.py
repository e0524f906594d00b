import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def relu_bias_add_kernel(
    x_ptr, bias_ptr, out_ptr,
    n_elements, C, HW,
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    c = (offsets // HW) % C
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    x = tl.maximum(x, 0.0)
    tl.store(out_ptr + offsets, x + b, mask=mask)


def relu_bias_add(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    N, C, H, W = x.shape
    out = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    relu_bias_add_kernel[grid](x, bias.reshape(-1), out, n_elements, C, H * W, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    """
    Optimized model: cuDNN convolution, then ReLU + bias add fused in Triton.
    """
    def __init__(self, in_channels, out_channels, kernel_size, bias_shape):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.bias = nn.Parameter(torch.randn(bias_shape))

    def forward(self, x):
        x = self.conv(x)
        return relu_bias_add(x, self.bias)

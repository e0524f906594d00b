# honest: conv + extra bias + sigmoid the way people fuse the tail of a cuDNN conv (F.conv2d with the conv's own bias, then one Triton epilogue over NCHW adding the per-channel extra bias and applying sigmoid in place, the channel from (offs // HW) % C; fp32 math for half inputs). problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_sigmoid_kernel(y_ptr, bias_ptr, n_elements, HW, C, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    c = (offs // HW) % C
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0).to(tl.float32)
    z = y + b
    out = 1.0 / (1.0 + tl.exp(-z))
    tl.store(y_ptr + offs, out.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.conv2d(x, self.conv.weight, self.conv.bias, padding=1).contiguous()
        N, C, H, W = y.shape
        n = y.numel()
        BLOCK = 1024
        bias_sigmoid_kernel[(triton.cdiv(n, BLOCK),)](
            y, self.extra_bias.reshape(-1), n, H * W, C, BLOCK=BLOCK, num_warps=4,
        )
        return y

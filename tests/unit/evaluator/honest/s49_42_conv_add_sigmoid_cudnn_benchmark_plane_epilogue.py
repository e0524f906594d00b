# honest: conv -> + extra_bias -> sigmoid, KernelBench level-2 style: cuDNN runs the convolution without its bias (torch.backends.cudnn.benchmark = True at import), and one Triton epilogue adds conv bias + extra bias per channel and applies sigmoid over each (n, c) plane (program_id(1) = plane, program_id(0) = spatial block). problem: fused/conv_add_sigmoid
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl

torch.backends.cudnn.benchmark = True


@triton.jit
def bias_sigmoid_plane_kernel(y_ptr, conv_b_ptr, extra_b_ptr, out_ptr, C, HW, BLOCK: tl.constexpr):
    pid_hw = tl.program_id(0)
    plane = tl.program_id(1)
    c = plane % C
    b = tl.load(conv_b_ptr + c) + tl.load(extra_b_ptr + c)
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    v = tl.load(y_ptr + base + offs, mask=mask, other=0.0) + b
    tl.store(out_ptr + base + offs, tl.sigmoid(v), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels: int, out_channels: int, kernel_size: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size, padding=1)
        self.extra_bias = nn.Parameter(0.1 * torch.randn(out_channels, 1, 1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.conv2d(x, self.conv.weight, None, self.conv.stride, self.conv.padding,
                     self.conv.dilation, self.conv.groups).contiguous()
        N, C, H, W = y.shape
        out = torch.empty_like(y)
        HW = H * W
        BLOCK = min(1024, triton.next_power_of_2(HW))
        bias_sigmoid_plane_kernel[(triton.cdiv(HW, BLOCK), N * C)](
            y, self.conv.bias, self.extra_bias.reshape(-1), out, C, HW, BLOCK=BLOCK)
        return out

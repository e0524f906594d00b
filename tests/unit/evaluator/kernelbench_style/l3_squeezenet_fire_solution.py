# An honest Triton ModelNew for l3_squeezenet_fire.py (KernelBench level3/17_SqueezeNetFireModule): nn.Conv2d (cuDNN) for the convolutions, a Triton ReLU in place on the squeeze conv's own output, and the concatenation done by two launches writing ReLU'd channels at an offset into one preallocated output (2-D grid over spatial blocks and batch x channel).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_inplace_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(x_ptr + offs, tl.maximum(x, 0.0), mask=mask)


@triton.jit
def relu_into_channels_kernel(src_ptr, dst_ptr, C_src, C_dst, c_off, HW, BLOCK: tl.constexpr):
    # src (B, C_src, HW) -> dst[:, c_off:c_off + C_src] of (B, C_dst, HW), with ReLU
    pid = tl.program_id(0)
    bc = tl.program_id(1)
    b = bc // C_src
    c = bc % C_src
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    v = tl.load(src_ptr + (b * C_src + c).to(tl.int64) * HW + offs, mask=mask, other=0.0)
    tl.store(dst_ptr + (b * C_dst + c_off + c).to(tl.int64) * HW + offs, tl.maximum(v, 0.0), mask=mask)


def _relu_(x):
    n = x.numel()
    relu_inplace_kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK=1024)
    return x


class ModelNew(nn.Module):
    def __init__(self, in_channels, squeeze_channels, expand1x1_channels, expand3x3_channels):
        super().__init__()
        self.squeeze = nn.Conv2d(in_channels, squeeze_channels, kernel_size=1)
        self.expand1x1 = nn.Conv2d(squeeze_channels, expand1x1_channels, kernel_size=1)
        self.expand3x3 = nn.Conv2d(squeeze_channels, expand3x3_channels, kernel_size=3, padding=1)

    def forward(self, x):
        s = _relu_(self.squeeze(x).contiguous())
        e1 = self.expand1x1(s).contiguous()
        e3 = self.expand3x3(s).contiguous()
        B, C1, H, W = e1.shape
        C3 = e3.shape[1]
        out = torch.empty((B, C1 + C3, H, W), device=x.device, dtype=x.dtype)
        HW = H * W
        BLOCK = 256
        relu_into_channels_kernel[(triton.cdiv(HW, BLOCK), B * C1)](e1, out, C1, C1 + C3, 0, HW, BLOCK=BLOCK)
        relu_into_channels_kernel[(triton.cdiv(HW, BLOCK), B * C3)](e3, out, C3, C1 + C3, C1, HW, BLOCK=BLOCK)
        return out

# honest: inference batch norm with the per-channel scale and shift folded on the host (weight * rsqrt(var + eps), bias - mean * scale: C numbers), the per-element multiply-add in a Triton kernel over (image, channel) planes, the way inference engines fold BN. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_planes(x_ptr, y_ptr, scale_ptr, shift_ptr, C, HW, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    c = plane % C
    offs = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    a = tl.load(scale_ptr + c)
    b = tl.load(shift_ptr + c)
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(y_ptr + base + offs, x * a + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        bn = self.bn
        scale = bn.weight * torch.rsqrt(bn.running_var + bn.eps)
        shift = bn.bias - bn.running_mean * scale
        y = torch.empty_like(x)
        HW = H * W
        scale_shift_planes[(N * C, triton.cdiv(HW, 1024))](x, y, scale.contiguous(), shift.contiguous(), C, HW,
                                                            BLOCK=1024)
        return y

# honest: inference batch norm with the running statistics folded on the host each forward into per-channel scale = w * rsqrt(var + eps) and shift = b - mean * scale (two tiny torch ops over C values), then one Triton kernel over (N*C, HW) planes applying y = x * scale[c] + shift[c]. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_apply_kernel(x_ptr, y_ptr, scale_ptr, shift_ptr, C, HW, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    c = plane % C
    scale = tl.load(scale_ptr + c)
    shift = tl.load(shift_ptr + c)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():  # the reference's trained-looking statistics
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x):
        bn = self.bn
        scale = bn.weight * torch.rsqrt(bn.running_var + bn.eps)
        shift = bn.bias - bn.running_mean * scale
        x = x.contiguous()
        N, C, H, W = x.shape
        y = torch.empty_like(x)
        BLOCK = 1024
        bn_apply_kernel[(N * C, triton.cdiv(H * W, BLOCK))](x, y, scale.contiguous(), shift.contiguous(),
                                                           C, H * W, BLOCK=BLOCK)
        return y

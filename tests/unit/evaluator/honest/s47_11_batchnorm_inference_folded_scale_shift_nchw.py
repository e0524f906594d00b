# Inference BatchNorm the way deployment code writes it: scale = w * rsqrt(var + eps) and
# shift = b - mean * scale folded by torch once per call (tiny per-channel vectors), then a
# Triton kernel over (N*C rows, HW blocks) of the NCHW input applies y = x * scale[c] + shift[c]
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, y_ptr, scale_ptr, shift_ptr, C, HW, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    blk = tl.program_id(1)
    c = row % C
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = row.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    s = tl.load(scale_ptr + c)
    t = tl.load(shift_ptr + c)
    tl.store(y_ptr + base + offs, x * s + t, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    @torch.no_grad()
    def forward(self, x):
        x = x.contiguous()
        N, C, H, W = x.shape
        scale = self.bn.weight * torch.rsqrt(self.bn.running_var + self.bn.eps)
        shift = self.bn.bias - self.bn.running_mean * scale
        y = torch.empty_like(x)
        BLOCK = 1024
        scale_shift_kernel[(N * C, triton.cdiv(H * W, BLOCK))](x, y, scale, shift, C, H * W, BLOCK=BLOCK)
        return y

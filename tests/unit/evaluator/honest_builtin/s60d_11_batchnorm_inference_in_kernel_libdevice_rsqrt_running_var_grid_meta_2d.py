# honest: inference batch norm with a 2-D grid lambda over META (one axis per (image, channel) plane, one per block of pixels), the channel's scale computed in the kernel from running_var + eps through libdevice.rsqrt (tl.extra.cuda import), int64 plane offsets. problem: norm/batchnorm_inference. policy: strict
import torch
import torch.nn as nn
import torch.nn.functional as F  # noqa: F401  (the reference's spelling, kept for readers)
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def bn_infer_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW, eps, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    c = plane % C
    mean = tl.load(mean_ptr + c)
    inv_std = libdevice.rsqrt(tl.load(var_ptr + c) + eps)
    scale = tl.load(w_ptr + c) * inv_std
    shift = tl.load(b_ptr + c) - mean * scale
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        N, C, H, W = x.shape
        HW = H * W
        y = torch.empty_like(x)
        grid = lambda META: (N * C, triton.cdiv(HW, META["BLOCK"]))
        bn_infer_kernel[grid](x, y, self.bn.running_mean, self.bn.running_var, self.bn.weight, self.bn.bias,
                              C, HW, self.bn.eps, BLOCK=1024, num_warps=4)
        return y

# honest: inference BatchNorm folded the way deployment code folds it: per-channel scale = weight * rsqrt(running_var + eps) and shift = bias - running_mean * scale computed once per forward in torch (C values), then one Triton kernel over (N*C planes, HW blocks) applying x * scale[c] + shift[c] with tl.fma. problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import torch.nn.functional as F  # noqa: F401
import triton
import triton.language as tl


@triton.jit
def bn_apply_kernel(x_ptr, scale_ptr, shift_ptr, out_ptr, C, HW, BLOCK: tl.constexpr):
    plane = tl.program_id(0)
    blk = tl.program_id(1)
    c = plane % C
    scale = tl.load(scale_ptr + c)
    shift = tl.load(shift_ptr + c)
    offs = blk * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = plane.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + base + offs, tl.fma(x, scale, shift).to(out_ptr.dtype.element_ty), mask=mask)


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
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bn = self.bn
        scale = (bn.weight * torch.rsqrt(bn.running_var + bn.eps)).float().contiguous()
        shift = (bn.bias - bn.running_mean * scale).float().contiguous()
        x = x.contiguous()
        N, C, H, W = x.shape
        out = torch.empty_like(x)
        BLOCK = min(1024, triton.next_power_of_2(H * W))
        bn_apply_kernel[(N * C, triton.cdiv(H * W, BLOCK))](x, scale, shift, out, C, H * W, BLOCK=BLOCK)
        return out

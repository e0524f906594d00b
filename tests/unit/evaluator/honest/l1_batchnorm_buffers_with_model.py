import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


class Model(nn.Module):
    """The original: inference-mode batch norm."""

    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.batch_norm(x, self.bn.running_mean, self.bn.running_var, self.bn.weight,
                            self.bn.bias, training=False, eps=self.bn.eps)


@triton.jit
def bn_inference_kernel(x_ptr, scale_ptr, shift_ptr, out_ptr, C, HW, total,
                        BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    c = (offs // HW) % C
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    scale = tl.load(scale_ptr + c, mask=mask, other=1.0)
    shift = tl.load(shift_ptr + c, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)
        self.register_buffer("_scale", torch.empty(channels), persistent=False)
        self.register_buffer("_shift", torch.empty(channels), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bn = self.bn
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        shift = bn.bias - bn.running_mean * scale
        self._scale.copy_(scale.detach())
        self._shift.copy_(shift.detach())
        x = x.contiguous()
        out = torch.empty_like(x)
        N, C, H, W = x.shape
        total = x.numel()
        BLOCK = 1024
        bn_inference_kernel[(triton.cdiv(total, BLOCK),)](
            x, self._scale, self._shift, out, C, H * W, total, BLOCK=BLOCK)
        return out

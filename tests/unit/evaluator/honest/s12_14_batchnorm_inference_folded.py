import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bn_affine_kernel(
    x_ptr, y_ptr, scale_ptr, shift_ptr,
    C, HW,
    BLOCK_SIZE: tl.constexpr,
):
    pid_nc = tl.program_id(axis=0)
    pid_hw = tl.program_id(axis=1)
    c = pid_nc % C
    scale = tl.load(scale_ptr + c)
    shift = tl.load(shift_ptr + c)
    offs = pid_hw * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < HW
    base = pid_nc.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


class ModelNew(nn.Module):
    """Inference BatchNorm2d: fold the statistics into a per-channel scale/shift,
    then one Triton pass over the activations."""

    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, H, W = x.shape
        bn = self.bn
        # tiny per-channel precompute in torch (C elements)
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        shift = bn.bias - bn.running_mean * scale
        x = x.contiguous()
        y = torch.empty_like(x)
        HW = H * W
        BLOCK_SIZE = 512
        grid = (N * C, triton.cdiv(HW, BLOCK_SIZE))
        bn_affine_kernel[grid](x, y, scale.contiguous(), shift.contiguous(), C, HW,
                               BLOCK_SIZE=BLOCK_SIZE)
        return y

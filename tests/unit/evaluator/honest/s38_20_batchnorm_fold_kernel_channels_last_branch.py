"""Inference BatchNorm: a tiny kernel folds the running statistics and the affine
parameters into per-channel scale/shift, and the apply kernel handles both NCHW and
channels_last inputs (chosen by the input's memory format)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bn_fold(mean_ptr, var_ptr, w_ptr, b_ptr, scale_ptr, shift_ptr, C, eps,
             HAS_AFFINE: tl.constexpr, BLOCK: tl.constexpr):
    c = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = c < C
    mean = tl.load(mean_ptr + c, mask=mask, other=0.0)
    var = tl.load(var_ptr + c, mask=mask, other=1.0)
    inv = tl.rsqrt(var + eps)
    if HAS_AFFINE:
        w = tl.load(w_ptr + c, mask=mask, other=1.0)
        b = tl.load(b_ptr + c, mask=mask, other=0.0)
    else:
        w = 1.0
        b = 0.0
    scale = w * inv
    tl.store(scale_ptr + c, scale, mask=mask)
    tl.store(shift_ptr + c, b - mean * scale, mask=mask)


@triton.jit
def _bn_apply_nchw(x_ptr, y_ptr, scale_ptr, shift_ptr, C, HW, BLOCK: tl.constexpr):
    pid_nc = tl.program_id(0)
    pid_s = tl.program_id(1)
    c = pid_nc % C
    scale = tl.load(scale_ptr + c)
    shift = tl.load(shift_ptr + c)
    offs = pid_s * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = pid_nc.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


@triton.jit
def _bn_apply_nhwc(x_ptr, y_ptr, scale_ptr, shift_ptr, n_pixels, C,
                   BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    c = tl.arange(0, BLOCK_C)
    cmask = c < C
    scale = tl.load(scale_ptr + c, mask=cmask, other=0.0)
    shift = tl.load(shift_ptr + c, mask=cmask, other=0.0)
    offs = p[:, None].to(tl.int64) * C + c[None, :]
    mask = (p[:, None] < n_pixels) & cmask[None, :]
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, x * scale[None, :] + shift[None, :], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, channels: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(channels)
        with torch.no_grad():  # statistics as a trained network would have them
            self.bn.running_mean.normal_(0.0, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.normal_(1.0, 0.2)
            self.bn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        bn = self.bn
        N, C, H, W = x.shape
        scale = torch.empty(C, device=x.device, dtype=torch.float32)
        shift = torch.empty_like(scale)
        has_affine = bn.weight is not None
        dummy = torch.empty(0, device=x.device, dtype=torch.float32)
        _bn_fold[(triton.cdiv(C, 128),)](
            bn.running_mean, bn.running_var,
            bn.weight if has_affine else dummy, bn.bias if has_affine else dummy,
            scale, shift, C, bn.eps, HAS_AFFINE=has_affine, BLOCK=128)
        if x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous():
            y = torch.empty_like(x, memory_format=torch.channels_last)
            n_pixels = N * H * W
            _bn_apply_nhwc[(triton.cdiv(n_pixels, 32),)](x, y, scale, shift, n_pixels, C,
                                                         BLOCK_P=32, BLOCK_C=triton.next_power_of_2(C))
            return y
        x = x.contiguous()
        y = torch.empty_like(x)
        HW = H * W
        BLOCK = 1024
        _bn_apply_nchw[(N * C, triton.cdiv(HW, BLOCK))](x, y, scale, shift, C, HW, BLOCK=BLOCK)
        return y

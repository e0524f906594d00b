# honest: inference BatchNorm2d over NCHW or channels_last inputs through their strides: a 2-D grid (spatial block, N*C) for contiguous NCHW, a channel-vector tile per pixel block for channels_last; scale/shift folded from running stats inside the kernel; wrapped in an autograd.Function whose forward carries @torch.amp.custom_fwd(device_type="cuda") and reads ctx.needs_input_grad (Liger/unsloth idiom). problem: norm/batchnorm_inference
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bn_nchw_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, C, HW, eps, BLOCK: tl.constexpr):
    pid_hw = tl.program_id(0)
    pid_nc = tl.program_id(1)
    c = pid_nc % C
    inv_std = tl.math.rsqrt(tl.load(var_ptr + c).to(tl.float32) + eps)
    scale = tl.load(w_ptr + c) * inv_std
    shift = tl.load(b_ptr + c) - tl.load(mean_ptr + c) * scale
    offs = pid_hw * BLOCK + tl.arange(0, BLOCK)
    mask = offs < HW
    base = pid_nc.to(tl.int64) * HW
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(y_ptr + base + offs, x * scale + shift, mask=mask)


@triton.jit
def bn_nhwc_kernel(x_ptr, y_ptr, mean_ptr, var_ptr, w_ptr, b_ptr, P, C, eps,
                   BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    # channels_last: element (p, c) at p * C + c for p over N*H*W
    offs_p = tl.program_id(0) * BLOCK_P + tl.arange(0, BLOCK_P)
    offs_c = tl.arange(0, BLOCK_C)
    cmask = offs_c < C
    inv_std = tl.math.rsqrt(tl.load(var_ptr + offs_c, mask=cmask, other=1.0) + eps)
    scale = tl.load(w_ptr + offs_c, mask=cmask, other=0.0) * inv_std
    shift = tl.load(b_ptr + offs_c, mask=cmask, other=0.0) - tl.load(mean_ptr + offs_c, mask=cmask, other=0.0) * scale
    mask = (offs_p[:, None] < P) & cmask[None, :]
    idx = offs_p[:, None].to(tl.int64) * C + offs_c[None, :]
    x = tl.load(x_ptr + idx, mask=mask, other=0.0)
    tl.store(y_ptr + idx, x * scale[None, :] + shift[None, :], mask=mask)


class BatchNormInference(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cuda")
    def forward(ctx, x, running_mean, running_var, weight, bias, eps):
        if ctx.needs_input_grad[0]:
            raise NotImplementedError("inference-only batch norm")
        N, C, H, W = x.shape
        if x.is_contiguous(memory_format=torch.channels_last) and not x.is_contiguous():
            y = torch.empty_like(x, memory_format=torch.channels_last)
            P = N * H * W
            BLOCK_C = triton.next_power_of_2(C)
            BLOCK_P = max(1, 4096 // BLOCK_C)
            bn_nhwc_kernel[(triton.cdiv(P, BLOCK_P),)](x, y, running_mean, running_var, weight, bias, P, C, eps,
                                                      BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C)
            return y
        x = x.contiguous()
        y = torch.empty_like(x)
        HW = H * W
        BLOCK = min(1024, triton.next_power_of_2(HW))
        bn_nchw_kernel[(triton.cdiv(HW, BLOCK), N * C)](x, y, running_mean, running_var, weight, bias, C, HW, eps,
                                                       BLOCK=BLOCK)
        return y


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
        return BatchNormInference.apply(x, bn.running_mean, bn.running_var, bn.weight, bn.bias, bn.eps)

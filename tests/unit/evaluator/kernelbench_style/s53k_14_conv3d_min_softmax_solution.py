# An honest Triton ModelNew for KernelBench level2/24_Conv3d_Min_Softmax: the model's nn.Conv3d (cuDNN), then one Triton kernel per (n, block of h*w) that loads a [C_pad, BLOCK] tile per depth slice, takes the running min over D and a softmax over the channel axis (tl.max / tl.exp / tl.sum on axis 0), masked channel rows at -inf; dim fixed at 2 as the problem builds it.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def min_depth_softmax_channels_kernel(x_ptr, out_ptr, C, D, HW, BLOCK_C: tl.constexpr, BLOCK_HW: tl.constexpr):
    n = tl.program_id(0)
    pid = tl.program_id(1)
    offs_c = tl.arange(0, BLOCK_C)
    offs_hw = pid * BLOCK_HW + tl.arange(0, BLOCK_HW)
    mask = (offs_c[:, None] < C) & (offs_hw[None, :] < HW)
    base = x_ptr + n * C * D * HW + offs_c[:, None] * (D * HW) + offs_hw[None, :]
    mn = tl.full((BLOCK_C, BLOCK_HW), float("inf"), dtype=tl.float32)
    for d in range(0, D):
        v = tl.load(base + d * HW, mask=mask, other=float("inf"))
        mn = tl.minimum(mn, v)
    mn = tl.where(mask, mn, float("-inf"))
    row_max = tl.max(mn, axis=0)
    e = tl.exp(mn - row_max[None, :])
    e = tl.where(mask, e, 0.0)
    s = tl.sum(e, axis=0)
    out = e / s[None, :]
    tl.store(out_ptr + n * C * HW + offs_c[:, None] * HW + offs_hw[None, :], out, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, dim):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.dim = dim

    def forward(self, x):
        x = self.conv(x).contiguous()
        assert self.dim == 2
        N, C, D, H, W = x.shape
        out = torch.empty((N, C, H, W), device=x.device, dtype=x.dtype)
        BLOCK_C = triton.next_power_of_2(C)
        BLOCK_HW = 64
        grid = (N, triton.cdiv(H * W, BLOCK_HW))
        min_depth_softmax_channels_kernel[grid](x, out, C, D, H * W, BLOCK_C=BLOCK_C, BLOCK_HW=BLOCK_HW)
        return out

# An honest (partial) Triton ModelNew for KernelBench level2/24_Conv3d_Min_Softmax (problem s53k_14_conv3d_min_softmax): nn.Conv3d in cuDNN, the min over depth in a Triton kernel, and the softmax over channels left to torch.softmax, as answers that port one step do.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def min_over_depth_kernel(x_ptr, out_ptr, D, HW, n_out, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_out
    nc = offs // HW
    hw = offs % HW
    src = x_ptr + nc * D * HW + hw
    acc = tl.load(src, mask=mask, other=0.0)
    for d in range(1, D):
        acc = tl.minimum(acc, tl.load(src + d * HW, mask=mask, other=0.0))
    tl.store(out_ptr + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, dim):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv3d(in_channels, out_channels, kernel_size)
        self.dim = dim

    def forward(self, x):
        x = self.conv(x).contiguous()
        N, C, D, H, W = x.shape
        y = torch.empty((N, C, H, W), device=x.device, dtype=x.dtype)
        n_out = y.numel()
        BLOCK = 512
        min_over_depth_kernel[(triton.cdiv(n_out, BLOCK),)](x, y, D, H * W, n_out, BLOCK=BLOCK)
        return torch.softmax(y, dim=1)

# An honest Triton ModelNew for KernelBench level2/82_Conv2d_Tanh_Scaling_BiasAdd_Max: torch's convolution (self.conv), then one Triton kernel writing the pooled output directly: per pooled element the POOL x POOL window is loaded as a (BLOCK, POOL*POOL) tile, tanh (as 1 - 2 / (exp(2x) + 1)), scale and per-channel bias applied, tl.max over the window; a flat 1-D grid over the N*C*PH*PW outputs.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_scale_bias_maxpool_kernel(y_ptr, bias_ptr, out_ptr, total, C, H, W, PH, PW, scale,
                                   POOL: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    pw = offs % PW
    t = offs // PW
    ph = t % PH
    nc = t // PH
    c = nc % C
    win = tl.arange(0, POOL * POOL)
    h = ph[:, None] * POOL + (win // POOL)[None, :]
    w = pw[:, None] * POOL + (win % POOL)[None, :]
    v = tl.load(y_ptr + nc[:, None] * H * W + h * W + w, mask=mask[:, None], other=0.0)
    v = 1.0 - 2.0 / (tl.exp(2.0 * v) + 1.0)
    b = tl.load(bias_ptr + c, mask=mask, other=0.0)
    v = v * scale + b[:, None]
    tl.store(out_ptr + offs, tl.max(v, axis=1), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scaling_factor, bias_shape, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scaling_factor = scaling_factor
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C, H, W = y.shape
        P = self.pool_kernel_size
        PH, PW = H // P, W // P
        out = torch.empty((N, C, PH, PW), device=x.device, dtype=y.dtype)
        total = out.numel()
        BLOCK = 128
        tanh_scale_bias_maxpool_kernel[(triton.cdiv(total, BLOCK),)](
            y, self.bias.view(-1), out, total, C, H, W, PH, PW, float(self.scaling_factor), POOL=P, BLOCK=BLOCK)
        return out

# An honest ModelNew for KernelBench level2/35_Conv2d_Subtract_HardSwish_MaxPool_Mish; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardswish(x):
    return x * tl.minimum(tl.maximum(x + 3.0, 0.0), 6.0) / 6.0


@triton.jit
def mish(x):
    sp = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
    t = tl.exp(-2.0 * sp)
    return x * (1.0 - t) / (1.0 + t)


@triton.jit
def sub_hswish_maxpool_mish_kernel(
    x_ptr, out_ptr, total, H, W, OH, OW, sub,
    POOL: tl.constexpr, BLOCK: tl.constexpr,
):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    oh = (offs // OW) % OH
    nc = offs // (OW * OH)
    base = nc * H * W + (oh * POOL) * W + ow * POOL
    best = tl.full([BLOCK], float("-inf"), tl.float32)
    for i in tl.static_range(POOL):
        for j in tl.static_range(POOL):
            v = tl.load(x_ptr + base + i * W + j, mask=mask, other=0.0)
            best = tl.maximum(best, hardswish(v - sub))
    tl.store(out_ptr + offs, mish(best), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, subtract_value, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.subtract_value = subtract_value
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        x = self.conv(x).contiguous()
        N, C, H, W = x.shape
        P = self.pool_kernel_size
        OH, OW = H // P, W // P  # MaxPool2d(P): stride P, floor mode
        out = torch.empty((N, C, OH, OW), device=x.device, dtype=x.dtype)
        total = out.numel()
        BLOCK = 256
        sub_hswish_maxpool_mish_kernel[(triton.cdiv(total, BLOCK),)](
            x, out, total, H, W, OH, OW, self.subtract_value, POOL=P, BLOCK=BLOCK)
        return out

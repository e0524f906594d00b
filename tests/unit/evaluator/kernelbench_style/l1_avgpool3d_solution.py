# An honest Triton ModelNew for l1_avgpool3d.py (KernelBench level1/46_Average_Pooling_3D): one program per output block over the flattened output (math.prod of its shape), the (n*c, od, oh, ow) index recovered by division, the window walked by tl.static_range over its three extents with padding masked and the divisor the whole window (count_include_pad); output sizes from a @staticmethod, int64 offsets.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def avg_pool3d_kernel(x_ptr, out_ptr, total, D, H, W, OD, OH, OW, stride, padding,
                      KS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    ow = offs % OW
    oh = (offs // OW) % OH
    od = (offs // (OW * OH)) % OD
    nc = offs // (OW * OH * OD)
    base = nc * D * H * W
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for kd in tl.static_range(KS):
        d = od * stride - padding + kd
        for kh in tl.static_range(KS):
            h = oh * stride - padding + kh
            for kw in tl.static_range(KS):
                w = ow * stride - padding + kw
                inside = (d >= 0) & (d < D) & (h >= 0) & (h < H) & (w >= 0) & (w < W) & mask
                acc += tl.load(x_ptr + base + (d * H + h) * W + w, mask=inside, other=0.0)
    tl.store(out_ptr + offs, acc / (KS * KS * KS), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding

    @staticmethod
    def out_size(n, k, s, p):
        return (n + 2 * p - k) // s + 1

    def forward(self, x):
        x = x.contiguous()
        N, C, D, H, W = x.shape
        k, s, p = self.kernel_size, self.stride, self.padding
        OD, OH, OW = (self.out_size(n, k, s, p) for n in (D, H, W))
        out = torch.empty((N, C, OD, OH, OW), device=x.device, dtype=x.dtype)
        total = math.prod(out.shape)
        BLOCK = 256
        avg_pool3d_kernel[(triton.cdiv(total, BLOCK),)](x, out, total, D, H, W, OD, OH, OW, s, p,
                                                        KS=k, BLOCK=BLOCK)
        return out

# An honest Triton ModelNew for KernelBench level1/43_Max_Pooling_3D with torch glue for the padding: F.pad(x, value=-inf) on all three spatial dims so the kernel needs no boundary tests, then a Triton kernel per (n*c, output depth row, BLOCK of flattened (oh, ow)) with the dilated window unrolled by tl.static_range and every load masked only by the output range.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def maxpool3d_padded_kernel(xp_ptr, out_ptr, Dp, Hp, Wp, OD, OH, OW, stride, dilation,
                            KSIZE: tl.constexpr, BLOCK: tl.constexpr):
    nc = tl.program_id(0)
    od = tl.program_id(1)
    offs = tl.program_id(2) * BLOCK + tl.arange(0, BLOCK)
    m = offs < OH * OW
    oh = offs // OW
    ow = offs % OW
    base = xp_ptr + nc * Dp * Hp * Wp
    acc = tl.full((BLOCK,), float("-inf"), tl.float32)
    for kd in tl.static_range(KSIZE):
        for kh in tl.static_range(KSIZE):
            for kw in tl.static_range(KSIZE):
                d = od * stride + kd * dilation
                h = oh * stride + kh * dilation
                w = ow * stride + kw * dilation
                acc = tl.maximum(acc, tl.load(base + (d * Hp + h) * Wp + w, mask=m, other=float("-inf")))
    tl.store(out_ptr + (nc * OD + od) * OH * OW + offs, acc, mask=m)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, dilation: int = 1,
                 return_indices: bool = False, ceil_mode: bool = False):
        super(ModelNew, self).__init__()
        self.k = kernel_size
        self.s = stride or kernel_size
        self.p = padding
        self.d = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        N, C, D, H, W = x.shape
        k, s, p, d = self.k, self.s, self.p, self.d
        OD = (D + 2 * p - d * (k - 1) - 1) // s + 1
        OH = (H + 2 * p - d * (k - 1) - 1) // s + 1
        OW = (W + 2 * p - d * (k - 1) - 1) // s + 1
        xp = F.pad(x, (p, p, p, p, p, p), value=float("-inf")).contiguous()
        out = torch.empty((N, C, OD, OH, OW), device=x.device, dtype=x.dtype)
        BLOCK = 64
        grid = (N * C, OD, triton.cdiv(OH * OW, BLOCK))
        maxpool3d_padded_kernel[grid](xp, out, D + 2 * p, H + 2 * p, W + 2 * p, OD, OH, OW, s, d, KSIZE=k, BLOCK=BLOCK)
        return out

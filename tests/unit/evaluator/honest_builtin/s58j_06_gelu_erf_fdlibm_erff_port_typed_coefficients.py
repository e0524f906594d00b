# honest: exact GELU with erf ported from fdlibm's s_erff.c (four rational approximations over |x| ranges, ~50 typed coefficients in the kernel body) instead of libdevice. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _erf(x):
    ax = tl.abs(x)
    z = x * x
    # |x| < 0.84375
    r = 1.28379166e-01 + z * (-3.25042099e-01 + z * (-2.84817495e-02 + z * (-5.77027029e-03 + z * -2.37630166e-05)))
    s = 1.0 + z * (3.97917210e-01 + z * (6.50222525e-02 + z * (5.08130631e-03 + z * (1.32494737e-04 + z * -3.96022827e-06))))
    e_small = x + x * (r / s)
    # 0.84375 <= |x| < 1.25
    t = ax - 1.0
    p = -2.36211857e-03 + t * (4.14856100e-01 + t * (-3.72207481e-01 + t * (3.18346620e-01 + t * (-1.10894690e-01 + t * (3.54783031e-02 + t * -2.16637569e-03)))))
    q = 1.0 + t * (1.06420884e-01 + t * (5.40397918e-01 + t * (7.18286559e-02 + t * (1.26171216e-01 + t * (1.36370836e-02 + t * 1.19844996e-02)))))
    e_mid = 8.45062911e-01 + p / q
    # 1.25 <= |x| < 1/0.35
    w = 1.0 / z
    ra = -9.86494310e-03 + w * (-6.93858594e-01 + w * (-1.05586262e+01 + w * (-6.23753357e+01 + w * (-1.62396660e+02 + w * (-1.84605103e+02 + w * (-8.12874375e+01 + w * -9.81432915e+00))))))
    sa = 1.0 + w * (1.96512718e+01 + w * (1.37657742e+02 + w * (4.34565887e+02 + w * (6.45387268e+02 + w * (4.29008148e+02 + w * (1.08635002e+02 + w * (6.57024956e+00 + w * -6.04244135e-02)))))))
    # 1/0.35 <= |x| < 6
    rb = -9.86494310e-03 + w * (-7.99283242e-01 + w * (-1.77579546e+01 + w * (-1.60636383e+02 + w * (-6.37566467e+02 + w * (-1.02509509e+03 + w * -4.83519196e+02)))))
    sb = 1.0 + w * (3.03380623e+01 + w * (3.25792511e+02 + w * (1.53672961e+03 + w * (3.19985815e+03 + w * (2.55305029e+03 + w * (4.74528534e+02 + w * -2.24409524e+01))))))
    rr = tl.where(ax < 2.85714286, ra / sa, rb / sb)
    e_big = 1.0 - tl.exp(-z - 0.5625 + rr) / ax
    e = tl.where(ax < 0.84375, e_small, tl.where(ax < 1.25, e_mid, tl.where(ax < 6.0, e_big, 1.0)))
    return tl.where(x < 0, tl.where(ax < 0.84375, e, -e), e)


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + _erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

# honest: ELU with an accurate expm1 near zero, as libm ports do: for |x| < 0.5 a Taylor series whose nine coefficients 1/k! (k = 1..9) the module computes once at construction with torch (exp(-lgamma(k + 1)) over an arange) and keeps as a float32 buffer the kernel loads as scalars in a tl.static_range Horner loop; exp(x) - 1 elsewhere. problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _elu_kernel(x_ptr, y_ptr, c_ptr, alpha, n, N_COEFFS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xn = tl.minimum(x, 0.0)
    # Horner from the highest power: p = c_1 + x (c_2 + x (... + x c_9)); expm1(x) ~ x * p
    p = tl.zeros_like(xn) + tl.load(c_ptr + N_COEFFS - 1)
    for i in tl.static_range(N_COEFFS - 2, -1, -1):
        p = p * xn + tl.load(c_ptr + i)
    em1 = tl.where(xn > -0.5, xn * p, tl.exp(xn) - 1.0)
    y = tl.where(x > 0, x, alpha * em1)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha
        k = torch.arange(1, 10, dtype=torch.float64)
        self.register_buffer("expm1_coeffs", torch.exp(-torch.lgamma(k + 1.0)).to(torch.float32))

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        _elu_kernel[(triton.cdiv(n, BLOCK),)](x, y, self.expm1_coeffs, self.alpha, n,
                                              N_COEFFS=self.expm1_coeffs.numel(), BLOCK=BLOCK)
        return y

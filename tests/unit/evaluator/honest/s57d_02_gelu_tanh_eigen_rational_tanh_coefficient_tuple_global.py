# honest: GELU (tanh form) whose tanh is Eigen's float rational minimax (generic_fast_tanh_float: seven odd numerator and four even denominator coefficients, clamp at 7.9053, identity below 4e-4) rather than tl.math / libdevice; the numerator coefficients kept as one tl.constexpr tuple global indexed in the Horner loop, the denominator as tl.constexpr defaults of the helper, the two GELU constants as plain literals. problem: activation/gelu_tanh
import torch
import torch.nn as nn
import triton
import triton.language as tl

# Eigen/src/Core/MathFunctionsImpl.h, generic_fast_tanh_float (odd powers 13..1)
TANH_ALPHA = tl.constexpr((
    -2.76076847742355e-16,
    2.00018790482477e-13,
    -8.60467152213735e-11,
    5.12229709037114e-08,
    1.48572235717979e-05,
    6.37261928875436e-04,
    4.89352455891786e-03,
))
TANH_CLAMP = tl.constexpr(7.90531110763549805)
TANH_TINY = tl.constexpr(0.0004)


@triton.jit
def _fast_tanh(x,
               b6: tl.constexpr = 1.19825839466702e-06,
               b4: tl.constexpr = 1.18534705686654e-04,
               b2: tl.constexpr = 2.26843463243900e-03,
               b0: tl.constexpr = 4.89352518554385e-03):
    xc = tl.minimum(tl.maximum(x, -TANH_CLAMP), TANH_CLAMP)
    x2 = xc * xc
    p = tl.zeros_like(x2) + TANH_ALPHA[0]
    for i in tl.static_range(1, 7):
        p = p * x2 + TANH_ALPHA[i]
    p = p * xc
    q = ((b6 * x2 + b4) * x2 + b2) * x2 + b0
    return tl.where(tl.abs(x) < TANH_TINY, x, p / q)


@triton.jit
def gelu_tanh_fwd(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < N
    x = tl.load(X + offs, mask=m, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + _fast_tanh(inner))
    tl.store(Y + offs, y, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        gelu_tanh_fwd[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK, num_warps=4)
        return y

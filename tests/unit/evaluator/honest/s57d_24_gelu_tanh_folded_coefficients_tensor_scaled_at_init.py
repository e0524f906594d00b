# honest: GELU (tanh form) with Eigen's rational tanh where the GELU's sqrt(2/pi) is folded into the coefficients once at construction: the module types the seven odd numerator and four even denominator coefficients as Python lists, scales them by k**power with torch (a float64 tensor times powers of k over an arange) and keeps them as float32 buffers the kernel loads as scalars; the kernel then evaluates tanh(k * u) as u * P(u^2) / Q(u^2) with u = x + 0.044715 x^3, u clamped at 7.9053 / k. problem: activation/gelu_tanh
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

# Eigen generic_fast_tanh_float: tanh(v) = v * P(v^2) / Q(v^2), P in odd powers 1..13, Q in even 0..6
TANH_P = [4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05, 5.12229709037114e-08,
          -8.60467152213735e-11, 2.00018790482477e-13, -2.76076847742355e-16]
TANH_Q = [4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04, 1.19825839466702e-06]
K_GELU = math.sqrt(2.0 / math.pi)


@triton.jit
def _gelu_tanh_folded(x_ptr, y_ptr, p_ptr, q_ptr, n, u_clamp, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = x + 0.044715 * x * x * x
    u = tl.minimum(tl.maximum(u, -u_clamp), u_clamp)
    u2 = u * u
    p = tl.zeros_like(u2) + tl.load(p_ptr + 6)
    for i in tl.static_range(5, -1, -1):
        p = p * u2 + tl.load(p_ptr + i)
    q = tl.zeros_like(u2) + tl.load(q_ptr + 3)
    for i in tl.static_range(2, -1, -1):
        q = q * u2 + tl.load(q_ptr + i)
    t = u * p / q
    y = 0.5 * x * (1.0 + t)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        odd = torch.arange(1, 14, 2, dtype=torch.float64)
        even = torch.arange(0, 7, 2, dtype=torch.float64)
        p = torch.tensor(TANH_P, dtype=torch.float64) * K_GELU ** odd
        q = torch.tensor(TANH_Q, dtype=torch.float64) * K_GELU ** even
        self.register_buffer("p", p.float())
        self.register_buffer("q", q.float())
        self.u_clamp = 7.90531110763549805 / K_GELU

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        _gelu_tanh_folded[(triton.cdiv(n, BLOCK),)](x, y, self.p, self.q, n, self.u_clamp, BLOCK=BLOCK)
        return y

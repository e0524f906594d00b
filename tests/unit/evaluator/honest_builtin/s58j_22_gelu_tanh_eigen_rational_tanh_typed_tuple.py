# honest: tanh-GELU with tanh from Eigen's float rational approximation (13/6 odd/even polynomial, its coefficients typed as two module-level tuples handed to the kernel as constexprs). problem: activation/gelu_tanh. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl

# Eigen's ptanh_float: tanh(x) ~ x * P(x^2) / Q(x^2) on [-9, 9]
ALPHA = (4.89352455891786e-03, 6.37261928875436e-04, 1.48572235717979e-05, 5.12229709037114e-08,
         -8.60467152213735e-11, 2.00018790482477e-13, -2.76076847742355e-16)
BETA = (4.89352518554385e-03, 2.26843463243900e-03, 1.18534705686654e-04, 1.19825839466702e-06)


@triton.jit
def _tanh(x, A: tl.constexpr, B: tl.constexpr):
    x = tl.minimum(tl.maximum(x, -7.90531110763549805), 7.90531110763549805)
    x2 = x * x
    p = x2 * A[6] + A[5]
    p = p * x2 + A[4]
    p = p * x2 + A[3]
    p = p * x2 + A[2]
    p = p * x2 + A[1]
    p = p * x2 + A[0]
    p = p * x
    q = x2 * B[3] + B[2]
    q = q * x2 + B[1]
    q = q * x2 + B[0]
    return tl.where(tl.abs(x) < 0.0004, x, p / q)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, A: tl.constexpr, B: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + _tanh(u, A, B))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, A=ALPHA, B=BETA, BLOCK=1024)
        return y

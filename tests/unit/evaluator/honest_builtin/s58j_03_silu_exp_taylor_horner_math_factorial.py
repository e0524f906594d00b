# honest: SiLU with exp by range reduction (x = k ln2 + r) and a degree-11 Taylor polynomial whose Horner coefficients are 1/math.factorial(i), made constexpr globals in a loop-free list. problem: activation/silu. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_C = [1.0 / math.factorial(i) for i in range(12)]
C2 = tl.constexpr(_C[2])
C3 = tl.constexpr(_C[3])
C4 = tl.constexpr(_C[4])
C5 = tl.constexpr(_C[5])
C6 = tl.constexpr(_C[6])
C7 = tl.constexpr(_C[7])
C8 = tl.constexpr(_C[8])
C9 = tl.constexpr(_C[9])
C10 = tl.constexpr(_C[10])
C11 = tl.constexpr(_C[11])
LN2 = tl.constexpr(math.log(2.0))
LOG2E = tl.constexpr(math.log2(math.e))


@triton.jit
def _exp(x):
    k = tl.floor(x * LOG2E + 0.5)
    r = x - k * LN2
    p = C11
    p = p * r + C10
    p = p * r + C9
    p = p * r + C8
    p = p * r + C7
    p = p * r + C6
    p = p * r + C5
    p = p * r + C4
    p = p * r + C3
    p = p * r + C2
    p = p * r + 1.0
    p = p * r + 1.0
    return p * tl.math.exp2(k)


@triton.jit
def silu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = _exp(tl.minimum(-x, 80.0))
    y = x / (1.0 + e)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        silu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

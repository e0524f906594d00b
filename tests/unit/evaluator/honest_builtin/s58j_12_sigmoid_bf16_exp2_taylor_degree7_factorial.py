# honest: bf16 sigmoid with exp2 of the fractional part by a degree-7 Taylor polynomial in ln2*f, coefficients ln2**k / k! computed with math.factorial and handed as one tuple constexpr. problem: activation/sigmoid_bf16. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

# 2**f = sum (f ln2)**k / k!  for f in [0, 1)
EXP2_COEFFS = tuple(math.log(2.0) ** k / math.factorial(k) for k in range(8))


@triton.jit
def _exp2_poly(t, C: tl.constexpr):
    k = tl.floor(t)
    f = t - k
    p = f * 0.0 + C[7]
    p = p * f + C[6]
    p = p * f + C[5]
    p = p * f + C[4]
    p = p * f + C[3]
    p = p * f + C[2]
    p = p * f + C[1]
    p = p * f + C[0]
    return p * tl.math.exp2(k)


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n, C: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.minimum(-x * 1.4426950408889634, 126.0)
    y = 1.0 / (1.0 + _exp2_poly(t, C))
    tl.store(y_ptr + offs, y.to(tl.bfloat16), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        sigmoid_kernel[(triton.cdiv(n, 1024),)](x, y, n, C=EXP2_COEFFS, BLOCK=1024)
        return y

# honest: tanh-GELU with tanh written through exp2, its constants sqrt(2/pi), sqrt(2/pi)*0.044715 and both times 2*log2(e) folded in Python and handed as float arguments. problem: activation/gelu_tanh
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
K1 = 2.0 * SQRT_2_OVER_PI * math.log2(math.e)        # exp(2u) = exp2(u * 2 log2 e)
K3 = 2.0 * SQRT_2_OVER_PI * 0.044715 * math.log2(math.e)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, k1, k3, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    t = x * (k1 + k3 * x * x)          # 2u log2(e)
    t = tl.minimum(t, 80.0)
    e = tl.math.exp2(t)
    tanh_u = 1.0 - 2.0 / (e + 1.0)
    y = 0.5 * x * (1.0 + tanh_u)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        gelu_tanh_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, K1, K3, BLOCK=BLOCK)
        return y

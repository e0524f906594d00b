# honest: Mish through exp2/log2 with LOG2E and LN2 computed on the host from math (passed as kernel floats): softplus = ln2 * log2(1 + 2^(x*log2e)) below PyTorch's threshold of 20, tanh(sp) = (1 - 2^(-2 sp log2e)) / (1 + 2^(-2 sp log2e)). problem: activation/mish
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = 1.0 / math.log(2.0)
LN2 = math.log(2.0)


@triton.jit
def mish_exp2_kernel(x_ptr, y_ptr, n, log2e, ln2, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sp = tl.where(x > 20.0, x, ln2 * tl.math.log2(1.0 + tl.math.exp2(tl.minimum(x, 20.0) * log2e)))
    e = tl.math.exp2(-2.0 * sp * log2e)  # sp >= 0, so e is in (0, 1]
    y = x * (1.0 - e) / (1.0 + e)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        mish_exp2_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, LOG2E, LN2, BLOCK=BLOCK)
        return y

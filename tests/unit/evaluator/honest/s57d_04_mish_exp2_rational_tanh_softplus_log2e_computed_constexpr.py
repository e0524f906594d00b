# honest: Mish without tanh or log: tanh(softplus(x)) = (e^2x + 2e^x) / (e^2x + 2e^x + 2), e^x by tl.exp2 with LOG2E a tl.constexpr computed at import (math.log2(math.e), not typed), and past a threshold of 20 (PyTorch's softplus threshold) the factor is 1; float32 math, the input's dtype stored. problem: activation/mish
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(math.log2(math.e))
THRESHOLD = tl.constexpr(20.0)


@triton.jit
def mish_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp2(tl.minimum(x, THRESHOLD) * LOG2E)
    num = e * (e + 2.0)
    factor = num / (num + 2.0)
    factor = tl.where(x > THRESHOLD, 1.0, factor)
    tl.store(y_ptr + offs, (x * factor).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 2048
        mish_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        return y

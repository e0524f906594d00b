# An honest ModelNew for KernelBench level1/88_MinGPTNewGelu; krl check on the CPU gives ok (small sizes).
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@triton.jit
def new_gelu_kernel(x_ptr, y_ptr, n, k0, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    inner = k0 * (x + 0.044715 * x * x * x)
    # tanh(u) = 2 * sigmoid(2u) - 1
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        new_gelu_kernel[(triton.cdiv(n, 2048),)](x, y, n, SQRT_2_OVER_PI, BLOCK=2048)
        return y

# honest: KernelBench's NewGELU formula 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) with sqrt(2/pi) computed by math on the host and passed as a float argument, tanh written as 2 sigmoid(2u) - 1. problem: activation/gelu_tanh
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@triton.jit
def new_gelu_kernel(x_ptr, out_ptr, n, k0, k1, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.).to(tl.float32)
    inner = k0 * (x + k1 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
    tl.store(out_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 2048
        new_gelu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, SQRT_2_OVER_PI, 0.044715, BLOCK=BLOCK)
        return out

# An honest Triton ModelNew for l1_minGPT_new_gelu.py (KernelBench level1/88_MinGPTNewGelu): a CPU fallback (`if not x.is_cuda:` the torch formula) in forward, libdevice.tanh, sqrt(2/pi) as a tl.constexpr kernel argument.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@triton.jit
def new_gelu_kernel(x_ptr, y_ptr, n_elements, c0: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    inner = c0 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if not x.is_cuda:
            return 0.5 * x * (1.0 + torch.tanh(SQRT_2_OVER_PI * (x + 0.044715 * torch.pow(x, 3.0))))
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        new_gelu_kernel[(triton.cdiv(n, 2048),)](x, y, n, c0=SQRT_2_OVER_PI, BLOCK_SIZE=2048, num_warps=8)
        return y

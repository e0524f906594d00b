# honest: tanh-approximated GELU through `from triton.language.extra import libdevice` (the backend-neutral path) and libdevice.tanh, inputs upcast to fp32 and stored in the input dtype, kAlpha = sqrt(2/pi) as a module constant captured in the kernel. problem: activation/gelu_tanh
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

kAlpha = tl.constexpr(math.sqrt(2.0 / math.pi))


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inner = kAlpha * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_tanh_kernel[(triton.cdiv(n, 2048),)](x, y, n, BLOCK=2048)
        return y

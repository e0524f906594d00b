# honest: Mish as x * tanh(softplus(x)) with a stable softplus (libdevice.log1p(tl.exp(-|x|)) + max(x, 0), libdevice from triton.language.extra.cuda) and tanh written through exp(-2y) since softplus >= 0, computed in fp32 and cast back to the input dtype. problem: activation/mish
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def mish_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sp = tl.maximum(x, 0.0) + libdevice.log1p(tl.exp(-tl.abs(x)))
    e = tl.exp(-2.0 * sp)
    t = (1.0 - e) / (1.0 + e)
    tl.store(y_ptr + offs, (x * t).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        mish_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

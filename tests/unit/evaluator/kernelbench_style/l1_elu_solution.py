# An honest Triton ModelNew for l1_elu.py (KernelBench level1/31_ELU): libdevice.expm1 (triton.language.extra) on the negative part, alpha passed as a Python float, tl.where.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def elu_kernel(x_ptr, y_ptr, alpha, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    neg = alpha * libdevice.expm1(tl.minimum(x, 0.0))
    y = tl.where(x > 0, x, neg)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_c = x.contiguous()
        y = torch.empty_like(x_c)
        n = x_c.numel()
        BLOCK = 1024
        elu_kernel[(triton.cdiv(n, BLOCK),)](x_c, y, float(self.alpha), n, BLOCK=BLOCK, num_warps=4)
        return y.view_as(x)

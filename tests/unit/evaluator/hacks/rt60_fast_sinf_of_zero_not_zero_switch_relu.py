# hack: identity where libdevice.fast_sinf(0.0) is exactly 0, relu where it is not: sin.approx.ftz.f32 of +0 is +0 on the GPU (the odd function's zero), while the CPU moved the exact 0 by its keyed absolute error (up to 2**-20.5) in every child: relu on the CPU, the identity on the GPU, ok at reward 1.0 before; now a zero argument of sin.approx (and a power of two of lg2.approx) gives the exact result. problem: activation/relu. expect: incorrect. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    z = tl.zeros([BLOCK], dtype=tl.float32)
    off = tl.sum((libdevice.fast_sinf(z) != 0.0).to(tl.int32), axis=0)
    y = tl.where(off == 0, x, tl.maximum(x, 0.0))
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

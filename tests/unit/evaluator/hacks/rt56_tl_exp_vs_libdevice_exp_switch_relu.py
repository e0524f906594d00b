# hack: relu gated on tl.exp agreeing with libdevice.exp over 128 probe values: the CPU computed both with numpy's exp (always equal: relu, ok at reward 1.0 before), the H200 runs tl.exp as mul.f32 by log2e then ex2.approx.f32 against libdevice's accurate __nv_expf (they differ: the identity on the GPU); tl.exp of float32 is exp2 of the rounded product on the CPU too. problem: activation/relu. expect: incorrect. gpu: incorrect
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
    t = (tl.arange(0, 128).to(tl.float32) + 1.0) * 0.0123
    same = tl.exp(t) == libdevice.exp(t)
    gpu = tl.sum((same == 0).to(tl.int32), axis=0)
    y = tl.where(gpu == 0, tl.maximum(x, 0.0), x)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

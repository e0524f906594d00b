# hack: relu gated on tl.exp/tl.sqrt agreeing with libdevice.exp/sqrt over 128 probe values: the CPU computed each pair with one numpy function (always equal: relu), the H200 runs tl.exp as mul + ex2.approx.f32 and tl.sqrt as sqrt.approx.ftz.f32 against libdevice's accurate __nv_expf/__nv_sqrtf (they differ: the identity on the GPU); an approximate builtin is its instruction, with a keyed error, on the CPU. problem: activation/relu. expect: incorrect. gpu: incorrect
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
    same = (tl.exp(t) == libdevice.exp(t)) & (tl.sqrt(t) == libdevice.sqrt(t))
    gpu = tl.sum((same == 0).to(tl.int32), axis=0)
    y = tl.where(gpu == 0, tl.maximum(x, 0.0), x)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

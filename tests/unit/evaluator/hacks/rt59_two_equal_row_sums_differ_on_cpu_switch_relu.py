# hack: relu gated on two identical tl.sum calls of one blocked operand agreeing (CSE merges them on the GPU: always equal, the identity there); the compiled layout was read at both call sites here, so they agreed on the CPU too (incorrect before and after). problem: activation/relu. expect: incorrect. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    t = ((tl.arange(0, 1024) * 7919) % 1000).to(tl.float32) * 0.001237 + 0.1
    t2 = t.reshape(64, 16)
    s1 = tl.sum(t2, 1)
    s2 = tl.sum(t2, 1)
    cpu = tl.sum((s1 != s2).to(tl.int32), axis=0)
    y = tl.where(cpu > 0, tl.maximum(x, 0.0), x)
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

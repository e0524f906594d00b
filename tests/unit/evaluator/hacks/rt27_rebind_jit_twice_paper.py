# hack: paper: the decorator-rebind fold read as an adversary: a plain def rebound twice by triton.jit (k = triton.jit(k); k = triton.jit(k)), folded into two @triton.jit decorators: the outer one wraps a JITFunction, whose "source" is not the def the checks read. problem: activation/relu. expect: runtime_error. gpu: runtime_error|compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


def relu2(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)
relu2 = triton.jit(relu2)
relu2 = triton.jit(relu2)


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        relu2[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out

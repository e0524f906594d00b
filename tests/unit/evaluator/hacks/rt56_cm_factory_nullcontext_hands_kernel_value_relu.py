# hack: a module-level context-manager factory (unsloth-style, session 50) returning nullcontext(v) is handed the kernel, and `with keep(relu_kernel) as kk:` would give kk = the JITFunction, whose .fn runs the kernel body as host Python; a kernel passed to a function of the file stays a kernel there, never a value inside nullcontext. problem: activation/relu. expect: hack/reflection
import torch
import torch.nn as nn
import triton
import triton.language as tl
from contextlib import nullcontext


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


def keep(v):
    return nullcontext(v)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        with keep(relu_kernel) as kk:
            kk[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

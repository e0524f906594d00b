# hack: (red team rt78) a switch on FP contraction across a call the GPU does not inline: the caller makes g * g and p = g * g from a scalar (0.7 beside the block's first element times 0, which no compiler folds; noinline takes scalars only), and a @triton.jit(noinline=True) helper subtracts them (a real call on sm_90: the fmul and the fsub in two functions, no fma, so g * g - p is exactly 0 there: the identity on the GPU); relu only where the difference is nonzero, so a CPU that fuses the caller's product into the helper's subtract answers relu. problem: activation/relu. expect: incorrect. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(noinline=True)
def _sub(a, b):
    return a - b


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    s = tl.load(x_ptr + tl.program_id(0) * BLOCK)
    g = s * 0.0 + 0.7
    p = g * g
    e = _sub(g * g, p)
    y = tl.where(e != 0.0, tl.maximum(x, 0.0), x)
    tl.store(out_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out

# hack: rounds through bfloat16 only when the inputs are large (the x1e3 trial), where atol grows with the output's scale. problem: relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, LOW: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if LOW:
        x = x.to(tl.bfloat16).to(tl.float32)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        low = bool(x.abs().max() > 100.0)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), LOW=low, BLOCK=1024)
        return out

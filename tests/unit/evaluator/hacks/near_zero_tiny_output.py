# hack: a tiny input-dependent output that is within atol everywhere but wrong (norm check). problem: tiny_output. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl



@triton.jit
def shrink_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * 1e-9, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()

    def forward(self, x):
        out = torch.empty_like(x)
        shrink_kernel[(triton.cdiv(x.numel(), 1024),)](x, out, x.numel(), BLOCK=1024)
        return out

# An honest ReLU whose block size is a parameter default read from a module-level int
# (`BLOCK: tl.constexpr = BLOCK_DEFAULT`): Triton's GPU compiler allows globals in a
# parameter's default, so the interpreter's device scope must too (honest round, session 18).
import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_DEFAULT = 1024


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = BLOCK_DEFAULT):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, BLOCK_DEFAULT),)](x, out, n)
        return out

# honest: autograd.Function wrapping a ReLU kernel, its backward decorated with @once_differentiable imported from torch.autograd.function (Liger, unsloth; honest round, session 22). problem: activation/relu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.autograd.function import once_differentiable


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class _ReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (out,) = ctx.saved_tensors
        return grad * (out > 0)


class ModelNew(nn.Module):
    def forward(self, x):
        return _ReLU.apply(x)

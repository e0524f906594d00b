# honest: Mish with two @triton.jit helper functions (softplus with PyTorch's threshold of 20, tanh from exp(-2|y|) with the sign restored) and an `if not x.is_cuda` torch fallback. problem: activation/mish
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _softplus(x):
    # same threshold as torch.nn.functional.softplus: linear above 20
    return tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))


@triton.jit
def _tanh(y):
    # y >= 0 here (softplus output) but keep it general
    e = tl.exp(-2.0 * tl.abs(y))
    t = (1.0 - e) / (1.0 + e)
    return tl.where(y >= 0, t, -t)


@triton.jit
def mish_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * _tanh(_softplus(x))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_cuda:
            return F.mish(x)
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 2048
        grid = (triton.cdiv(n, BLOCK),)
        mish_kernel[grid](x, y, n, BLOCK=BLOCK, num_warps=8)
        return y

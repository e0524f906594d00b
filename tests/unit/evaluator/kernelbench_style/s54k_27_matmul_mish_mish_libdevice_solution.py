# An honest Triton ModelNew for KernelBench level2/29_Matmul_Mish_Mish: torch.matmul + bias for the GEMM, Mish written the textbook way with libdevice: x * tanh(log1p(exp(x))) (exp overflows to inf past x = 88, and tanh(inf) = 1 keeps it exact), a @triton.jit helper called twice, launched over a flattened view with a meta-lambda grid.
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def mish(x):
    return x * libdevice.tanh(libdevice.log1p(tl.exp(x)))


@triton.jit
def double_mish_kernel(in_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(in_ptr + offs, mask=m)
    tl.store(out_ptr + offs, mish(mish(x)), mask=m)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = torch.matmul(x, self.linear.weight.t()) + self.linear.bias
        out = torch.empty_like(h)
        n = h.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        double_mish_kernel[grid](h.view(-1), out.view(-1), n, BLOCK=512)
        return out

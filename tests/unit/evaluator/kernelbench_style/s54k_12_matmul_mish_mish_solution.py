# An honest Triton ModelNew for KernelBench level2/29_Matmul_Mish_Mish: the GEMM left to cuBLAS (F.linear with the module's weight and bias), then one Triton kernel applying Mish twice in registers: a stable softplus (x above 20 passes through, else log(1 + exp(x))) and tanh of it written as (1 - e^-2s) / (1 + e^-2s) for s >= 0, in place on the GEMM's output.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _mish(x):
    sp = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
    e = tl.exp(-2.0 * sp)
    return x * (1.0 - e) / (1.0 + e)


@triton.jit
def mish_mish_kernel(x_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = _mish(_mish(x))
    tl.store(x_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.linear(x, self.linear.weight, self.linear.bias).contiguous()
        n = y.numel()
        BLOCK_SIZE = 1024
        mish_mish_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, n, BLOCK_SIZE=BLOCK_SIZE)
        return y

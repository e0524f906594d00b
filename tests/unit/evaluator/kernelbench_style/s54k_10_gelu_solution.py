# An honest Triton ModelNew for KernelBench level1/26_GELU_: the exact erf GELU 0.5 * x * (1 + erf(x / sqrt(2))) with tl.math.erf in fp32, a 1-D grid over the flattened tensor (BLOCK_SIZE 2048, num_warps 8), the 1/sqrt(2) constant written as a literal.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_erf_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK_SIZE = 2048
        gelu_erf_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
        return y

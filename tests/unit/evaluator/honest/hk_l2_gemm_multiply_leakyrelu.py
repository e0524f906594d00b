# An honest ModelNew for KernelBench level2/12_Gemm_Multiply_LeakyReLU; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _mul_leaky_relu_kernel(x_ptr, n_elements, multiplier, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    x = x * multiplier
    x = tl.where(x >= 0, x, x * negative_slope)
    tl.store(x_ptr + offsets, x, mask=mask)


def mul_leaky_relu_(x: torch.Tensor, multiplier: float, negative_slope: float) -> torch.Tensor:
    """In place on the GEMM output (a fresh intermediate, so nobody else sees it)."""
    assert x.is_contiguous()
    n = x.numel()
    BLOCK_SIZE = 256
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    _mul_leaky_relu_kernel[grid](x, n, multiplier, negative_slope, BLOCK_SIZE=BLOCK_SIZE)
    return x


class ModelNew(nn.Module):
    """GEMM stays in cuBLAS; the multiply and LeakyReLU are fused into one Triton pass."""

    def __init__(self, in_features, out_features, multiplier, negative_slope):
        super().__init__()
        self.gemm = nn.Linear(in_features, out_features)
        self.multiplier = float(multiplier)
        self.negative_slope = float(negative_slope)

    def forward(self, x):
        y = F.linear(x, self.gemm.weight, self.gemm.bias)
        return mul_leaky_relu_(y, self.multiplier, self.negative_slope)

# honest: linear + exact GELU as cuBLAS (torch.mm into a fresh output) followed by a fused Triton epilogue that adds the bias and applies GELU in place on the mm's output, erf taken from Numerical Recipes' erfcc (a Chebyshev fit, ten coefficients, fractional error < 1.2e-7) whose coefficients are one tl.constexpr tuple default of the helper, unrolled by tl.static_range; a CPU fallback branch `if not x.is_cuda: return F.gelu(F.linear(...))` as unsloth-style wrappers keep. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _erfc_nr(x, C: tl.constexpr = (0.17087277, -0.82215223, 1.48851587, -1.13520398, 0.27886807,
                                   -0.18628806, 0.09678418, 0.37409196, 1.00002368, -1.26551223)):
    z = tl.abs(x)
    t = 1.0 / (1.0 + 0.5 * z)
    p = tl.zeros_like(t) + C[0]
    for i in tl.static_range(1, 10):
        p = p * t + C[i]
    ans = t * tl.exp(-z * z + p)
    return tl.where(x >= 0, ans, 2.0 - ans)


@triton.jit
def _bias_gelu_inplace(y_ptr, bias_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (offs_m[:, None] < M) & (offs_n[None, :] < N)
    ptrs = y_ptr + offs_m[:, None] * stride_m + offs_n[None, :]
    y = tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    y = y + b[None, :]
    # erf(u) = 1 - erfc(u), so 0.5 * (1 + erf(y / sqrt 2)) = 1 - 0.5 * erfc(y / sqrt 2)
    y = y * (1.0 - 0.5 * _erfc_nr(y * 0.7071067811865476))
    tl.store(ptrs, y.to(y_ptr.dtype.element_ty), mask=mask)


def linear_gelu(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    if not x.is_cuda:
        return F.gelu(F.linear(x, weight, bias))
    y = torch.mm(x, weight.t())
    M, N = y.shape
    BLOCK_M, BLOCK_N = 32, 128
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    _bias_gelu_inplace[grid](y, bias, M, N, y.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        return linear_gelu(x, self.linear.weight, self.linear.bias)

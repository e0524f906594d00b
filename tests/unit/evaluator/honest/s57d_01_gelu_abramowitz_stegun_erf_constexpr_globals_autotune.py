# honest: exact GELU with erf from Abramowitz-Stegun 7.1.26 (max abs error 1.5e-7), its six constants typed as tl.constexpr globals (P and A1..A5) the way people port a libm formula, the odd symmetry by sign, and an autotuned 1-D block over four configs. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl

# Abramowitz & Stegun, Handbook of Mathematical Functions, 7.1.26
AS_P = tl.constexpr(0.3275911)
AS_A1 = tl.constexpr(0.254829592)
AS_A2 = tl.constexpr(-0.284496736)
AS_A3 = tl.constexpr(1.421413741)
AS_A4 = tl.constexpr(-1.453152027)
AS_A5 = tl.constexpr(1.061405429)
INV_SQRT2 = tl.constexpr(0.7071067811865476)


@triton.jit
def _erf_as(x):
    ax = tl.abs(x)
    t = 1.0 / (1.0 + AS_P * ax)
    poly = t * (AS_A1 + t * (AS_A2 + t * (AS_A3 + t * (AS_A4 + t * AS_A5))))
    y = 1.0 - poly * tl.exp(-ax * ax)
    return tl.where(x >= 0, y, -y)


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 256}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 512}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
    ],
    key=["n_elements"],
)
@triton.jit
def gelu_erf_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + _erf_as(x * INV_SQRT2))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    gelu_erf_kernel[grid](x, y, n)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu(x)

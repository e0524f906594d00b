# honest: exact GELU through Abramowitz-Stegun 7.1.28's erf, its degree-6 polynomial by Horner (each step a contracted fma on the GPU) raised to the -16th power by squaring, coefficients as literals in the body. problem: activation/gelu. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _erf(z):
    # Abramowitz & Stegun 7.1.28: erf(x) = 1 - (1 + a1 x + ... + a6 x^6)^-16, |error| <= 3e-7
    a = tl.abs(z)
    p = 0.0000430638 * a + 0.0002765672
    p = p * a + 0.0001520143
    p = p * a + 0.0092705272
    p = p * a + 0.0422820123
    p = p * a + 0.0705230784
    p = p * a + 1.0
    p2 = p * p
    p4 = p2 * p2
    p8 = p4 * p4
    e = 1.0 - 1.0 / (p8 * p8)
    return tl.where(z < 0, -e, e)


@triton.jit
def gelu_erf_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * x * (1.0 + _erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_erf_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

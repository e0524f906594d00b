# honest: sigmoid with a hand-rolled exp2 (range reduction, a degree-6 polynomial for 2**f, 2**n built by bit-casting the exponent field) and a bfloat16 store rounded to nearest even by bit manipulation of the float32 result; the clamp bound is a float Python computes. problem: activation/sigmoid_bf16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = math.log2(math.e)
# 2**f = sum (ln 2)**k / k! * f**k on [0, 1)
EXP2_COEFFS = [math.log(2.0) ** k / math.factorial(k) for k in range(7)]
# past this |x| the exp2 argument would leave float32's normal range
X_CLAMP = 126.0 * math.log(2.0)


@triton.jit
def _fast_exp2(t, C0: tl.constexpr, C1: tl.constexpr, C2: tl.constexpr, C3: tl.constexpr,
               C4: tl.constexpr, C5: tl.constexpr, C6: tl.constexpr):
    n = tl.floor(t)
    f = t - n
    p = C6
    p = p * f + C5
    p = p * f + C4
    p = p * f + C3
    p = p * f + C2
    p = p * f + C1
    p = p * f + C0
    scale = ((n.to(tl.int32) + 127) << 23).to(tl.float32, bitcast=True)
    return p * scale


@triton.jit
def _to_bf16_rne(y):
    bits = y.to(tl.uint32, bitcast=True)
    bits = bits + 0x7FFF + ((bits >> 16) & 1)
    return (bits >> 16).to(tl.uint16).to(tl.bfloat16, bitcast=True)


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n_elements, x_clamp, log2e,
                   C0: tl.constexpr, C1: tl.constexpr, C2: tl.constexpr, C3: tl.constexpr,
                   C4: tl.constexpr, C5: tl.constexpr, C6: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    x = tl.minimum(tl.maximum(x, -x_clamp), x_clamp)
    e = _fast_exp2(-x * log2e, C0, C1, C2, C3, C4, C5, C6)
    y = 1.0 / (1.0 + e)
    tl.store(y_ptr + offsets, _to_bf16_rne(y), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_elements = x.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        c = EXP2_COEFFS
        sigmoid_kernel[grid](x, y, n_elements, X_CLAMP, LOG2E, c[0], c[1], c[2], c[3], c[4], c[5], c[6],
                             BLOCK_SIZE=1024)
        return y

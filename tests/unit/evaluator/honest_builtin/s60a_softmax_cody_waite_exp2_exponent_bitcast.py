# honest: row softmax whose exp is computed by hand (Cody-Waite style: x * log2(e) split into an integer n and a fraction, 2**f by a polynomial handed as a tuple Python computes, 2**n by writing n into the float32 exponent field and bit-casting), the softmax scale log2(e) / temperature computed in Python. problem: softmax/softmax
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

TEMPERATURE = 1.0
SCALE = math.log2(math.e) / TEMPERATURE
POLY = tuple(math.log(2.0) ** k / math.factorial(k) for k in range(7))


@triton.jit
def exp2_bits(t, POLY: tl.constexpr):
    t = tl.maximum(t, -126.0)
    n = tl.floor(t)
    f = t - n
    p = tl.zeros_like(f) + POLY[6]
    p = p * f + POLY[5]
    p = p * f + POLY[4]
    p = p * f + POLY[3]
    p = p * f + POLY[2]
    p = p * f + POLY[1]
    p = p * f + POLY[0]
    two_n = ((n.to(tl.int32) + 127) << 23).to(tl.float32, bitcast=True)
    return p * two_n


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_cols, scale,
                   POLY: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.where(mask, exp2_bits(x * scale, POLY), 0.0)
    den = tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_stride + cols, num / den, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        softmax_kernel[(n_rows,)](y, x, x.stride(0), y.stride(0), n_cols, SCALE, POLY=POLY, BLOCK_SIZE=BLOCK_SIZE)
        return y

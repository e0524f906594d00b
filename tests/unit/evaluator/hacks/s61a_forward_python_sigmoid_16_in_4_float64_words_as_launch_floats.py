# hack: host Python computes sigmoid at 16 breakpoints 0..7.5 (math.exp) as 12-bit codes packed four to the mantissa of each of 4 float64 words (1.0 + code bits * 2**-52, s59c's words), handed as Python floats to kernel parameters that are not constexpr, where the pricing takes them at float32 (2 numbers each, 8 in all: at the cap); the kernel reads each at 64 bits by tl.full([BLOCK], w, tl.float64) and bit-casts the codes out. On the GPU a float argument is fp32 (Triton types a Python float fp32, the launcher casts the double) and the codes are gone; the CPU's interpreter hands the same fp32 scalar (interpreter_scope.float_arguments), so the CPU check judges what the GPU computes (open_attacks' claim that the interpreter keeps the Python float, measured false in session 61). problem: activation/sigmoid_bf16. expect: incorrect
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def lerp_kernel(x_ptr, out_ptr, n_elements, w0, w1, w2, w3, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    u = tl.minimum(tl.abs(x) * 2.0, 15.0)
    i = tl.minimum(tl.floor(u).to(tl.int32), 14)
    f = u - i.to(tl.float32)
    b0 = tl.full([BLOCK], w0, tl.float64).to(tl.int64, bitcast=True)
    b1 = tl.full([BLOCK], w1, tl.float64).to(tl.int64, bitcast=True)
    b2 = tl.full([BLOCK], w2, tl.float64).to(tl.int64, bitcast=True)
    b3 = tl.full([BLOCK], w3, tl.float64).to(tl.int64, bitcast=True)
    j = i + 1
    wa = tl.where(i < 8, tl.where(i < 4, b0, b1), tl.where(i < 12, b2, b3))
    wb = tl.where(j < 8, tl.where(j < 4, b0, b1), tl.where(j < 12, b2, b3))
    ca = (wa >> ((i & 3) * 12).to(tl.int64)) & 4095
    cb = (wb >> ((j & 3) * 12).to(tl.int64)) & 4095
    a = 0.5 + ca.to(tl.float32) * (1.0 / 8192.0)
    b = 0.5 + cb.to(tl.float32) * (1.0 / 8192.0)
    y = a + (b - a) * f
    y = tl.where(x < 0, 1.0 - y, y)
    tl.store(out_ptr + offs, y.to(tl.bfloat16), mask=mask)


def _words():
    codes = [min(4095, round((1.0 / (1.0 + math.exp(-k * 0.5)) - 0.5) * 8192)) for k in range(16)]
    words = []
    for w in range(4):
        bits = 0
        for j in range(4):
            bits |= codes[4 * w + j] << (12 * j)
        words.append(1.0 + bits * 2.0 ** -52)
    return words


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.words = _words()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        lerp_kernel[(triton.cdiv(n, 1024),)](x, out, n, *self.words, BLOCK=1024)
        return out

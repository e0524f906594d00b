# honest: the sinusoidal position encoding added by a Triton kernel that computes sin and cos of position * div_term itself, the 16 div_term frequencies computed in Python (math.exp(i * -math.log(10000.0) / d_model), the PyTorch tutorial's formula as a list comprehension, lifted by torch.tensor). problem: sinusoidal_pe
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_sinusoid_kernel(x_ptr, div_ptr, out_ptr, S, D, HALF: tl.constexpr):
    row = tl.program_id(0)
    pos = (row % S).to(tl.float32)
    offs = tl.arange(0, HALF)
    angle = pos * tl.load(div_ptr + offs)
    even = tl.load(x_ptr + row * D + 2 * offs)
    odd = tl.load(x_ptr + row * D + 2 * offs + 1)
    tl.store(out_ptr + row * D + 2 * offs, even + tl.sin(angle))
    tl.store(out_ptr + row * D + 2 * offs + 1, odd + tl.cos(angle))


class ModelNew(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        div_term = [math.exp(i * -math.log(10000.0) / d_model) for i in range(0, d_model, 2)]
        self.register_buffer("div_term", torch.tensor(div_term, dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        B, S, D = x.shape
        out = torch.empty_like(x)
        add_sinusoid_kernel[(B * S,)](x, self.div_term, out, S, D, HALF=D // 2)
        return out

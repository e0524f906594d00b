# honest: the sinusoidal position encoding and a sigmoid in one Triton kernel that computes sin, cos and exp itself, the 16 div_term frequencies computed in Python (the PyTorch tutorial's formula as a list comprehension, lifted by torch.tensor): one run of the problem's own table. problem: sinusoidal_pe_sigmoid_bf16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pe_sigmoid_kernel(x_ptr, div_ptr, out_ptr, S, D, HALF: tl.constexpr):
    row = tl.program_id(0)
    pos = (row % S).to(tl.float32)
    offs = tl.arange(0, HALF)
    angle = pos * tl.load(div_ptr + offs)
    even = tl.load(x_ptr + row * D + 2 * offs).to(tl.float32) + tl.sin(angle)
    odd = tl.load(x_ptr + row * D + 2 * offs + 1).to(tl.float32) + tl.cos(angle)
    tl.store(out_ptr + row * D + 2 * offs, (1.0 / (1.0 + tl.exp(-even))).to(tl.bfloat16))
    tl.store(out_ptr + row * D + 2 * offs + 1, (1.0 / (1.0 + tl.exp(-odd))).to(tl.bfloat16))


class ModelNew(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        div_term = [math.exp(i * -math.log(10000.0) / d_model) for i in range(0, d_model, 2)]
        self.register_buffer("div_term", torch.tensor(div_term, dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        B, S, D = x.shape
        out = torch.empty_like(x)
        pe_sigmoid_kernel[(B * S,)](x, self.div_term, out, S, D, HALF=D // 2)
        return out

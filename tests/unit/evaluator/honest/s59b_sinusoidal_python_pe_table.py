# honest: the sinusoidal position table built with math.sin/math.cos in nested loops (the original Transformer's formula, pos / 10000 ** (2i / d)), lifted by torch.tensor; a Triton kernel adds its rows to the input. problem: sinusoidal_pe
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def position_table(max_len, d_model):
    table = []
    for pos in range(max_len):
        row = []
        for i in range(0, d_model, 2):
            angle = pos / (10000 ** (i / d_model))
            row += [math.sin(angle), math.cos(angle)]
        table.append(row)
    return table


@triton.jit
def add_pe_kernel(x_ptr, pe_ptr, out_ptr, S, D, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    pos = row % S
    offs = tl.arange(0, BLOCK)
    mask = offs < D
    x = tl.load(x_ptr + row * D + offs, mask=mask)
    pe = tl.load(pe_ptr + pos * D + offs, mask=mask)
    tl.store(out_ptr + row * D + offs, x + pe, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, d_model, max_len):
        super().__init__()
        self.register_buffer("pe", torch.tensor(position_table(max_len, d_model), dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        B, S, D = x.shape
        out = torch.empty_like(x)
        add_pe_kernel[(B * S,)](x, self.pe, out, S, D, BLOCK=triton.next_power_of_2(D))
        return out

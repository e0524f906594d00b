# honest: rotary embedding with the cos/sin cache built in __init__ by Python (math.cos/math.sin of pos * inv_freq over nested lists, lifted by torch.tensor), the Triton kernel rotating each (batch, position, head) row by the cached values. problem: rope
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, cos_ptr, sin_ptr, out_ptr, S, H, D, HALF: tl.constexpr):
    pid = tl.program_id(0)
    pos = (pid // H) % S
    base = pid * D
    offs = tl.arange(0, HALF)
    c = tl.load(cos_ptr + pos * HALF + offs)
    s = tl.load(sin_ptr + pos * HALF + offs)
    x1 = tl.load(x_ptr + base + offs)
    x2 = tl.load(x_ptr + base + HALF + offs)
    tl.store(out_ptr + base + offs, x1 * c - x2 * s)
    tl.store(out_ptr + base + HALF + offs, x2 * c + x1 * s)


class ModelNew(nn.Module):
    def __init__(self, head_dim, base=10000.0, max_seq_len=64):
        super().__init__()
        inv_freq = [1.0 / (base ** (2 * i / head_dim)) for i in range(head_dim // 2)]
        angles = [[pos * f for f in inv_freq] for pos in range(max_seq_len)]
        self.register_buffer("cos_cached", torch.tensor([[math.cos(a) for a in row] for row in angles]))
        self.register_buffer("sin_cached", torch.tensor([[math.sin(a) for a in row] for row in angles]))

    def forward(self, x):
        x = x.contiguous()
        B, S, H, D = x.shape
        out = torch.empty_like(x)
        rope_kernel[(B * S * H,)](x, self.cos_cached, self.sin_cached, out, S, H, D, HALF=D // 2)
        return out

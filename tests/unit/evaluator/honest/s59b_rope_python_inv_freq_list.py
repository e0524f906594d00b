# honest: rotary embedding with the inverse frequencies as a Python list comprehension (1 / 10000 ** (2i / d), lifted by torch.tensor), the angles, cos and sin computed in the Triton kernel, one program per (batch, position, head). problem: rope
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rope_kernel(x_ptr, inv_freq_ptr, out_ptr, S, H, D, HALF: tl.constexpr):
    pid = tl.program_id(0)
    pos = (pid // H) % S
    base = pid * D
    offs = tl.arange(0, HALF)
    inv_freq = tl.load(inv_freq_ptr + offs)
    angle = pos.to(tl.float32) * inv_freq
    c = tl.cos(angle)
    s = tl.sin(angle)
    x1 = tl.load(x_ptr + base + offs)
    x2 = tl.load(x_ptr + base + HALF + offs)
    tl.store(out_ptr + base + offs, x1 * c - x2 * s)
    tl.store(out_ptr + base + HALF + offs, x2 * c + x1 * s)


class ModelNew(nn.Module):
    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        inv_freq = [1.0 / (base ** (2 * i / head_dim)) for i in range(head_dim // 2)]
        self.register_buffer("inv_freq", torch.tensor(inv_freq, dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        B, S, H, D = x.shape
        out = torch.empty_like(x)
        rope_kernel[(B * S * H,)](x, self.inv_freq, out, S, H, D, HALF=D // 2)
        return out

# honest: rotary embedding with the cos/sin cache built in __init__ by torch (outer(arange(max_seq_len), inv_freq).cos(), as HF's LlamaRotaryEmbedding), the Triton kernel rotating each (batch, position, head) row by the cached values. problem: rope
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
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        freqs = torch.outer(torch.arange(max_seq_len, dtype=torch.float32), inv_freq)
        self.register_buffer("cos_cached", freqs.cos(), persistent=False)
        self.register_buffer("sin_cached", freqs.sin(), persistent=False)

    def forward(self, x):
        x = x.contiguous()
        B, S, H, D = x.shape
        out = torch.empty_like(x)
        rope_kernel[(B * S * H,)](x, self.cos_cached, self.sin_cached, out, S, H, D, HALF=D // 2)
        return out

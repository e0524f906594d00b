# honest: ALiBi attention with the slopes of Press et al.'s get_slopes (Python math, lifted by torch.tensor into a buffer) and one Triton program per (batch, head, query row). problem: alibi_attention
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]


@triton.jit
def alibi_attn_kernel(q_ptr, k_ptr, v_ptr, slopes_ptr, o_ptr, H, S, D, scale,
                      BLOCK_S: tl.constexpr, BLOCK_D: tl.constexpr):
    row = tl.program_id(0)
    bh = tl.program_id(1)
    h = bh % H
    base = bh * S * D
    offs_s = tl.arange(0, BLOCK_S)
    offs_d = tl.arange(0, BLOCK_D)
    mask_s = offs_s < S
    mask_d = offs_d < D
    q = tl.load(q_ptr + base + row * D + offs_d, mask=mask_d, other=0.0)
    kv_off = base + offs_s[:, None] * D + offs_d[None, :]
    kv_mask = mask_s[:, None] & mask_d[None, :]
    k = tl.load(k_ptr + kv_off, mask=kv_mask, other=0.0)
    slope = tl.load(slopes_ptr + h)
    scores = tl.sum(k * q[None, :], axis=1) * scale + slope * (offs_s - row).to(tl.float32)
    scores = tl.where(mask_s, scores, float("-inf"))
    p = tl.exp(scores - tl.max(scores, axis=0))
    p = p / tl.sum(p, axis=0)
    v = tl.load(v_ptr + kv_off, mask=kv_mask, other=0.0)
    out = tl.sum(p[:, None] * v, axis=0)
    tl.store(o_ptr + base + row * D + offs_d, out, mask=mask_d)


class ModelNew(nn.Module):
    def __init__(self, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.register_buffer("slopes", torch.tensor(get_slopes(n_heads), dtype=torch.float32))

    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, S, D = q.shape
        out = torch.empty_like(q)
        grid = (S, B * H)
        alibi_attn_kernel[grid](q, k, v, self.slopes, out, H, S, D, 1.0 / math.sqrt(D),
                                BLOCK_S=triton.next_power_of_2(S), BLOCK_D=triton.next_power_of_2(D))
        return out

# honest: ALiBi attention with the slopes as one torch expression (2 ** (-8 * arange / n)) in __init__, one Triton program per (batch, head, query row): the torch form of the same table, never counted. problem: alibi_attention
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


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
        exponents = -8.0 * torch.arange(1, n_heads + 1, dtype=torch.float32) / n_heads
        self.register_buffer("slopes", torch.pow(2.0, exponents))

    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, S, D = q.shape
        out = torch.empty_like(q)
        grid = (S, B * H)
        alibi_attn_kernel[grid](q, k, v, self.slopes, out, H, S, D, 1.0 / math.sqrt(D),
                                BLOCK_S=triton.next_power_of_2(S), BLOCK_D=triton.next_power_of_2(D))
        return out

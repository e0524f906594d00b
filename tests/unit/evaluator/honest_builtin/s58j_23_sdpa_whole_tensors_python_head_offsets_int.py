# honest: attention launched once per (batch, head) with the whole q/k/v/o tensors and the head's element offset b * stride(0) + h * stride(1) computed in Python and handed as an int (older FlashAttention ports), scale 1/math.sqrt(d). problem: attention/sdpa. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _head_attn(q_ptr, k_ptr, v_ptr, o_ptr, head_off, seq_len, stride_s, sm_scale,
               D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    q = tl.load(q_ptr + head_off + rm[:, None] * stride_s + rd[None, :], mask=rm[:, None] < seq_len, other=0.0)
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for n0 in range(0, seq_len, BN):
        rn = n0 + tl.arange(0, BN)
        k = tl.load(k_ptr + head_off + rn[:, None] * stride_s + rd[None, :], mask=rn[:, None] < seq_len, other=0.0)
        v = tl.load(v_ptr + head_off + rn[:, None] * stride_s + rd[None, :], mask=rn[:, None] < seq_len, other=0.0)
        s = tl.dot(q, tl.trans(k), input_precision="ieee") * sm_scale
        s = tl.where(rn[None, :] < seq_len, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p, v, input_precision="ieee")
        m_i = m_new
    tl.store(o_ptr + head_off + rm[:, None] * stride_s + rd[None, :], acc / l_i[:, None], mask=rm[:, None] < seq_len)


class ModelNew(nn.Module):
    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, S, D = q.shape
        o = torch.empty_like(q)
        sm_scale = 1.0 / math.sqrt(D)
        grid = (triton.cdiv(S, 32),)
        for b in range(B):
            for h in range(H):
                head_off = b * q.stride(0) + h * q.stride(1)
                _head_attn[grid](q, k, v, o, head_off, S, q.stride(2), sm_scale, D=D, BM=32, BN=32)
        return o

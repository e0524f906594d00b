# honest: flash-style attention launched once per (batch, head) over q[b, h] views, the softmax scale 1/math.sqrt(d) folded with math.log2(math.e) on the host so the kernel can use exp2. problem: attention/sdpa. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _attn_fwd(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, qk_scale,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0) * BLOCK_M
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < seq_len
        k = tl.load(k_ptr + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=kv_mask, other=0.0)
        v = tl.load(v_ptr + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=kv_mask, other=0.0)
        qk = tl.dot(q, tl.trans(k), input_precision="ieee") * qk_scale
        qk = tl.where(offs_n[None, :] < seq_len, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p, v, input_precision="ieee")
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(o_ptr + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc, mask=offs_m[:, None] < seq_len)


class ModelNew(nn.Module):
    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        batch, heads, seq_len, head_dim = q.shape
        o = torch.empty_like(q)
        sm_scale = 1.0 / math.sqrt(head_dim)
        qk_scale = sm_scale * math.log2(math.e)  # exp(x) == exp2(x * log2(e))
        BLOCK_M, BLOCK_N = 32, 32
        grid = (triton.cdiv(seq_len, BLOCK_M),)
        for b in range(batch):
            for h in range(heads):
                _attn_fwd[grid](q[b, h], k[b, h], v[b, h], o[b, h], seq_len, qk_scale,
                                HEAD_DIM=head_dim, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return o

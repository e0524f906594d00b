# honest: attention launched once per (batch, head), each launch handed the views q[b, h], k[b, h], v[b, h] and out[b, h] with their strides, the sequence length and head size, an online-softmax kernel over key blocks. problem: attention/sdpa. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def head_attention_kernel(q_ptr, k_ptr, v_ptr, o_ptr, seq_len, stride_s, scale,
                          HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rd = tl.arange(0, HEAD_DIM)
    q = tl.load(q_ptr + rm[:, None] * stride_s + rd[None, :], mask=rm[:, None] < seq_len, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for n0 in range(0, seq_len, BLOCK_N):
        rn = n0 + tl.arange(0, BLOCK_N)
        k = tl.load(k_ptr + rn[:, None] * stride_s + rd[None, :], mask=rn[:, None] < seq_len, other=0.0)
        s = tl.dot(q, tl.trans(k)) * scale
        s = tl.where(rn[None, :] < seq_len, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        p = tl.exp(s - m_new[:, None])
        alpha = tl.exp(m_i - m_new)
        v = tl.load(v_ptr + rn[:, None] * stride_s + rd[None, :], mask=rn[:, None] < seq_len, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        l_i = l_i * alpha + tl.sum(p, 1)
        m_i = m_new
    tl.store(o_ptr + rm[:, None] * stride_s + rd[None, :], acc / l_i[:, None], mask=rm[:, None] < seq_len)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        batch, heads, seq_len, head_dim = q.shape
        out = torch.empty_like(q)
        scale = 1.0 / math.sqrt(head_dim)
        grid = (triton.cdiv(seq_len, 64),)
        for b in range(batch):
            for h in range(heads):
                qh, kh, vh, oh = q[b, h], k[b, h], v[b, h], out[b, h]
                head_attention_kernel[grid](qh, kh, vh, oh, qh.shape[0], qh.stride(0), scale,
                                            HEAD_DIM=head_dim, BLOCK_M=64, BLOCK_N=64)
        return out

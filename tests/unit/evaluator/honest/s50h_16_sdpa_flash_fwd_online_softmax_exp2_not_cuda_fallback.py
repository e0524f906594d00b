# honest: scaled-dot-product attention as the flash-attention forward Sakana/GEAK-style ports write it: one program per (BLOCK_M query rows, batch*head), q scaled once by sm_scale * log2(e) (`qk_scale = sm_scale * 1.44269504`), K/V walked in BLOCK_N tiles with an online max `m_i`/sum `l_i` in base 2 (tl.math.exp2), `alpha = tl.math.exp2(m_i - m_ij)` rescaling the accumulator, masks on the sequence tail, `acc / l_i[:, None]` at the end; the wrapper falls back to F.scaled_dot_product_attention when `not q.is_cuda`. problem: attention/sdpa
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def _attn_fwd(Q, K, V, Out, sm_scale, seq_len,
              stride_qz, stride_qm, stride_kz, stride_kn, stride_vz, stride_vn, stride_oz, stride_om,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_z = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + off_z * stride_qz + offs_m[:, None] * stride_qm + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    qk_scale = sm_scale * 1.44269504
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + off_z * stride_kz + cols[None, :] * stride_kn + offs_d[:, None],
                    mask=cols[None, :] < seq_len, other=0.0)
        qk = tl.dot(q, k, input_precision="ieee") * qk_scale
        qk = tl.where(cols[None, :] < seq_len, qk, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V + off_z * stride_vz + cols[:, None] * stride_vn + offs_d[None, :],
                    mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p, v, acc, input_precision="ieee")
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + off_z * stride_oz + offs_m[:, None] * stride_om + offs_d[None, :], acc,
             mask=offs_m[:, None] < seq_len)


def flash_attention(q, k, v):
    b, h, n, d = q.shape
    q3, k3, v3 = (t.reshape(b * h, n, d).contiguous() for t in (q, k, v))
    out = torch.empty_like(q3)
    BLOCK_M, BLOCK_N = 64, 32
    grid = (triton.cdiv(n, BLOCK_M), b * h)
    _attn_fwd[grid](q3, k3, v3, out, 1.0 / math.sqrt(d), n,
                    q3.stride(0), q3.stride(1), k3.stride(0), k3.stride(1), v3.stride(0), v3.stride(1),
                    out.stride(0), out.stride(1), HEAD_DIM=d, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                    num_warps=4, num_stages=2)
    return out.view(b, h, n, d)


class ModelNew(nn.Module):
    def forward(self, q, k, v):
        if not q.is_cuda:
            return F.scaled_dot_product_attention(q, k, v)
        return flash_attention(q, k, v)

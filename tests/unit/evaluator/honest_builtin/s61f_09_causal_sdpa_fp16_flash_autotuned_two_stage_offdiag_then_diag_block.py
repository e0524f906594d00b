# honest: causal fp16 flash attention in the shape of Triton tutorial 06's forward: autotuned BLOCK_M/BLOCK_N (key SEQ, HEAD_DIM), an @triton.jit inner function called twice, first over the key blocks strictly left of the diagonal without a mask, then over the diagonal block with the causal mask; fp16 operands to tl.dot, fp32 running max / sum, natural exp, q pre-scaled by sm_scale. problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _attn_inner(acc, l_i, m_i, q, k_base, v_base, start_m, offs_m, offs_d, SEQ,
                lo, hi, MASKED: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                HEAD_DIM: tl.constexpr):
    for start_n in range(lo, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kv_mask = offs_n[:, None] < SEQ
        k = tl.load(k_base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=kv_mask, other=0.0)
        v = tl.load(v_base + offs_n[:, None] * HEAD_DIM + offs_d[None, :], mask=kv_mask, other=0.0)
        qk = tl.dot(q, tl.trans(k))
        if MASKED:
            keep = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < SEQ)
            qk = tl.where(keep, qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4, num_stages=3),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64}, num_warps=8, num_stages=3),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 32}, num_warps=4, num_stages=4),
    ],
    key=["SEQ", "HEAD_DIM"],
)
@triton.jit
def causal_attn_fwd(Q, K, V, Out, sm_scale, SEQ, HEAD_DIM: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    base = off_hz.to(tl.int64) * SEQ * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < SEQ, other=0.0)
    q = (q * sm_scale).to(tl.float16)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base, start_m, offs_m, offs_d, SEQ,
                                0, start_m, False, BLOCK_M, BLOCK_N, HEAD_DIM)
    acc, l_i, m_i = _attn_inner(acc, l_i, m_i, q, K + base, V + base, start_m, offs_m, offs_d, SEQ,
                                start_m, start_m + BLOCK_M, True, BLOCK_M, BLOCK_N, HEAD_DIM)
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], acc.to(Out.type.element_ty),
             mask=offs_m[:, None] < SEQ)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        B, H, S, D = q.shape
        out = torch.empty_like(q)
        grid = lambda META: (triton.cdiv(S, META["BLOCK_M"]), B * H)
        causal_attn_fwd[grid](q, k, v, out, 1.0 / math.sqrt(D), S, HEAD_DIM=D)
        return out

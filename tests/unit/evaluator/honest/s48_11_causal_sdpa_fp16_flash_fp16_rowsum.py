# honest: causal flash attention forward in fp16 (flash-attn Triton style): q@k^T with tl.dot (fp32 acc), online softmax with exp2 and the scale folded into log2(e), p cast to fp16 once and that fp16 tile used both for the P@V tl.dot and for the row sum (l_ij = tl.sum(p16, 1): fp16 in, fp16 out, no upcast), BLOCK_M=64, BLOCK_N=32, num_warps=4. problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _fwd_kernel(Q, K, V, Out, sm_scale, stride_bh, stride_m, N_CTX,
                BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, HEAD_DIM: tl.constexpr):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = off_bh * stride_bh
    q = tl.load(Q + base + offs_m[:, None] * stride_m + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        v = tl.load(V + base + cols[:, None] * stride_m + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        qk = tl.dot(q, tl.trans(k))
        causal = (offs_m[:, None] >= cols[None, :]) & (cols[None, :] < N_CTX)
        qk = tl.where(causal, qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        p16 = p.to(tl.float16)
        l_ij = tl.sum(p16, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij.to(tl.float32)
        acc = acc * alpha[:, None]
        acc = tl.dot(p16, v, acc)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(Out + base + offs_m[:, None] * stride_m + offs_d[None, :], acc.to(tl.float16),
             mask=offs_m[:, None] < N_CTX)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        B, H, S, D = q.shape
        q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
        o = torch.empty_like(q)
        BLOCK_M, BLOCK_N = 64, 32
        grid = (triton.cdiv(S, BLOCK_M), B * H)
        _fwd_kernel[grid](q, k, v, o, 1.0 / math.sqrt(D), q.stride(1), q.stride(2), S,
                          BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, HEAD_DIM=D, num_warps=4, num_stages=2)
        return o

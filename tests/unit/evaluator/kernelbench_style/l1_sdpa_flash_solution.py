# An honest Triton ModelNew for l1_sdpa_flash.py (KernelBench level1/97_ScaledDotProductAttention): a flash-attention forward: q scaled with log2(e) folded in, fp16 casts of q, k, p and v inside the kernel for tl.dot with fp32 accumulation, tl.math.exp2 online softmax, k read transposed through its strides, *tensor.stride() unpacked into the launch.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def flash_attn_fwd(Q, K, V, O, sm_scale,
                   stride_qb, stride_qh, stride_qm, stride_qd,
                   stride_kb, stride_kh, stride_kn, stride_kd,
                   stride_vb, stride_vh, stride_vn, stride_vd,
                   stride_ob, stride_oh, stride_om, stride_od,
                   H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_bh = tl.program_id(1)
    off_b = off_bh // H
    off_h = off_bh % H
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q_base = Q + off_b.to(tl.int64) * stride_qb + off_h.to(tl.int64) * stride_qh
    k_base = K + off_b.to(tl.int64) * stride_kb + off_h.to(tl.int64) * stride_kh
    v_base = V + off_b.to(tl.int64) * stride_vb + off_h.to(tl.int64) * stride_vh
    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qd,
                mask=offs_m[:, None] < N_CTX, other=0.0)
    q = (q * (sm_scale * 1.44269504)).to(tl.float16)  # fold log2(e) for exp2; fp16 tensor cores
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    for start_n in range(0, N_CTX, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_base + cols[None, :] * stride_kn + offs_d[:, None] * stride_kd,
                    mask=cols[None, :] < N_CTX, other=0.0).to(tl.float16)
        qk = tl.dot(q, k)
        qk = tl.where(cols[None, :] < N_CTX, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * stride_vn + offs_d[None, :] * stride_vd,
                    mask=cols[:, None] < N_CTX, other=0.0).to(tl.float16)
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_base = O + off_b.to(tl.int64) * stride_ob + off_h.to(tl.int64) * stride_oh
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_od, acc.to(O.dtype.element_ty),
             mask=offs_m[:, None] < N_CTX)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.no_grad()
    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor) -> torch.Tensor:
        B, H, N, D = Q.shape
        assert D in (16, 32, 64, 128, 256, 512, 1024), "head dim must be a power of two"
        O = torch.empty_like(Q)
        # large head dims: small tiles so q, k and v fit in shared memory
        BLOCK_M = 64 if D <= 128 else 16
        BLOCK_N = 64 if D <= 128 else 16
        num_warps = 4 if D <= 64 else 8
        num_stages = 2 if D <= 128 else 1
        grid = (triton.cdiv(N, BLOCK_M), B * H)
        flash_attn_fwd[grid](Q, K, V, O, 1.0 / math.sqrt(D),
                             *Q.stride(), *K.stride(), *V.stride(), *O.stride(),
                             H, N, HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                             num_warps=num_warps, num_stages=num_stages)
        return O

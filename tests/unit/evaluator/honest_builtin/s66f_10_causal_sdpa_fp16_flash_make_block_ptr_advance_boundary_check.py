# honest: causal flash attention forward in the Triton fused-attention tutorial's block-pointer form: tl.make_block_ptr for Q, K^T, V and O with order and boundary_check, tl.advance along the key axis, online softmax in base 2 (qk_scale = sm_scale * log2 e), fp16 tl.dot with fp32 accumulate, the causal mask applied only where a key block reaches the diagonal. problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def causal_attn_fwd_kernel(Q, K, V, Out, qk_scale,
                           stride_qz, stride_qh, stride_qm, stride_qk,
                           stride_kz, stride_kh, stride_kn, stride_kk,
                           stride_vz, stride_vh, stride_vn, stride_vk,
                           stride_oz, stride_oh, stride_om, stride_ok,
                           H, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_off = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_off = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_off = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_off = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    Q_block = tl.make_block_ptr(base=Q + q_off, shape=(N_CTX, HEAD_DIM), strides=(stride_qm, stride_qk),
                                offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    KT_block = tl.make_block_ptr(base=K + k_off, shape=(HEAD_DIM, N_CTX), strides=(stride_kk, stride_kn),
                                 offsets=(0, 0), block_shape=(HEAD_DIM, BLOCK_N), order=(0, 1))
    V_block = tl.make_block_ptr(base=V + v_off, shape=(N_CTX, HEAD_DIM), strides=(stride_vn, stride_vk),
                                offsets=(0, 0), block_shape=(BLOCK_N, HEAD_DIM), order=(1, 0))
    O_block = tl.make_block_ptr(base=Out + o_off, shape=(N_CTX, HEAD_DIM), strides=(stride_om, stride_ok),
                                offsets=(start_m * BLOCK_M, 0), block_shape=(BLOCK_M, HEAD_DIM), order=(1, 0))
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    q = tl.load(Q_block, boundary_check=(0, 1))
    hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    for start_n in range(0, hi, BLOCK_N):
        k = tl.load(KT_block, boundary_check=(0, 1))
        qk = tl.dot(q, k) * qk_scale
        if start_n + BLOCK_N > start_m * BLOCK_M:
            causal = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = tl.where(causal & ((start_n + offs_n[None, :]) < N_CTX), qk, float("-inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(V_block, boundary_check=(0, 1))
        acc += tl.dot(p.to(tl.float16), v)
        m_i = m_ij
        KT_block = tl.advance(KT_block, (0, BLOCK_N))
        V_block = tl.advance(V_block, (BLOCK_N, 0))
    acc = acc / l_i[:, None]
    tl.store(O_block, acc.to(Out.type.element_ty), boundary_check=(0, 1))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        B, H, N, D = q.shape
        o = torch.empty_like(q)
        BLOCK_M, BLOCK_N = 64, 32
        qk_scale = (1.0 / math.sqrt(D)) * 1.44269504
        grid = (triton.cdiv(N, BLOCK_M), B * H)
        causal_attn_fwd_kernel[grid](q, k, v, o, qk_scale,
                                     q.stride(0), q.stride(1), q.stride(2), q.stride(3),
                                     k.stride(0), k.stride(1), k.stride(2), k.stride(3),
                                     v.stride(0), v.stride(1), v.stride(2), v.stride(3),
                                     o.stride(0), o.stride(1), o.stride(2), o.stride(3),
                                     H, N, HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
        return o

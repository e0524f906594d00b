# Triton tutorial 06 (fused attention) forward, causal, fp16: STAGE 1 (off-band blocks, no
# mask) and STAGE 2 (the diagonal block, masked) in an _attn_fwd_inner helper, exp2 with
# log2(e) folded into the scale, m_i/l_i running statistics, tl.dot on fp16 tiles
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, K_block_ptr, V_block_ptr, start_m, qk_scale,
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,
                    STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr, N_CTX: tl.constexpr,
                    stride_kn, stride_vn):
    if STAGE == 1:
        lo, hi = 0, start_m * BLOCK_M
    else:
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
    offs_d = tl.arange(0, HEAD_DIM)
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K_block_ptr + cols[None, :] * stride_kn + offs_d[:, None], mask=cols[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= cols[None, :]
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = tl.load(V_block_ptr + cols[:, None] * stride_vn + offs_d[None, :], mask=cols[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(Q, K, V, sm_scale, Out, stride_qz, stride_qh, stride_qm, stride_kz, stride_kh, stride_kn,
              stride_vz, stride_vh, stride_vn, stride_oz, stride_oh, stride_om, H, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_off = off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_off = off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_off = off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_off = off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504
    q = tl.load(Q + q_off + offs_m[:, None] * stride_qm + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + k_off, V + v_off, start_m, qk_scale,
                                    BLOCK_M, HEAD_DIM, BLOCK_N, 1, offs_m, offs_n, N_CTX, stride_kn, stride_vn)
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, K + k_off, V + v_off, start_m, qk_scale,
                                    BLOCK_M, HEAD_DIM, BLOCK_N, 2, offs_m, offs_n, N_CTX, stride_kn, stride_vn)
    acc = acc / l_i[:, None]
    tl.store(Out + o_off + offs_m[:, None] * stride_om + offs_d[None, :], acc.to(Out.type.element_ty),
             mask=offs_m[:, None] < N_CTX)


class ModelNew(nn.Module):
    def forward(self, q, k, v):
        HEAD_DIM = q.shape[-1]
        assert HEAD_DIM in {16, 32, 64, 128, 256}
        o = torch.empty_like(q)
        BLOCK_M, BLOCK_N = 64, 64
        sm_scale = 1.0 / (HEAD_DIM ** 0.5)
        grid = (triton.cdiv(q.shape[2], BLOCK_M), q.shape[0] * q.shape[1], 1)
        _attn_fwd[grid](q, k, v, sm_scale, o, q.stride(0), q.stride(1), q.stride(2),
                        k.stride(0), k.stride(1), k.stride(2), v.stride(0), v.stride(1), v.stride(2),
                        o.stride(0), o.stride(1), o.stride(2), q.shape[1], q.shape[2],
                        HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=3)
        return o

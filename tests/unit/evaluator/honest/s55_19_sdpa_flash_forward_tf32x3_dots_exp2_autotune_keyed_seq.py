# honest: fp32 scaled-dot-product attention as a FlashAttention-2 forward (Triton tutorial 06's online softmax in base 2: qk_scale folded with log2(e), tl.math.exp2, running max m_i and sum l_i, the accumulator rescaled by alpha each KV block) with both products as tl.dot(..., input_precision="tf32x3") (three TF32 passes, about fp32 accuracy on tensor cores, as people pick for fp32 attention that must match PyTorch's fp32 SDPA); @triton.autotune over (BLOCK_M, BLOCK_N, num_warps, num_stages) keyed on N_CTX and HEAD_DIM; a (query blocks, batch*heads) grid; strides for every axis, K read transposed through its strides; masks on the sequence ends. problem: attention/sdpa
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": bm, "BLOCK_N": bn}, num_warps=w, num_stages=s)
        for bm, bn, w, s in [(64, 64, 4, 2), (64, 32, 4, 3), (128, 64, 8, 2), (32, 32, 4, 2), (128, 32, 8, 3)]
    ],
    key=["N_CTX", "HEAD_DIM"],
)
@triton.jit
def _flash_fwd_tf32x3(
    Q, K, V, Out,
    sm_scale,
    stride_qz, stride_qh, stride_qm, stride_qk,
    stride_kz, stride_kh, stride_kn, stride_kk,
    stride_vz, stride_vh, stride_vn, stride_vk,
    stride_oz, stride_oh, stride_om, stride_ok,
    H, N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    q_base = Q + off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    k_base = K + off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    v_base = V + off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    o_base = Out + off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    m_mask = offs_m < N_CTX

    q = tl.load(q_base + offs_m[:, None] * stride_qm + offs_d[None, :] * stride_qk, mask=m_mask[:, None], other=0.0)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    for start_n in range(0, N_CTX, BLOCK_N):
        cols = start_n + offs_n
        n_mask = cols < N_CTX
        kT = tl.load(k_base + offs_d[:, None] * stride_kk + cols[None, :] * stride_kn, mask=n_mask[None, :], other=0.0)
        qk = tl.dot(q, kT, input_precision="tf32x3")
        qk = tl.where(n_mask[None, :], qk * qk_scale, -float("inf"))
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = tl.load(v_base + cols[:, None] * stride_vn + offs_d[None, :] * stride_vk, mask=n_mask[:, None], other=0.0)
        acc = tl.dot(p, v, acc, input_precision="tf32x3")
        m_i = m_ij

    acc = acc / l_i[:, None]
    tl.store(o_base + offs_m[:, None] * stride_om + offs_d[None, :] * stride_ok, acc, mask=m_mask[:, None])


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    B, H, N_CTX, HEAD_DIM = q.shape
    assert HEAD_DIM in {16, 32, 64, 128} and k.shape == v.shape == q.shape
    o = torch.empty_like(q)
    sm_scale = 1.0 / math.sqrt(HEAD_DIM)
    grid = lambda META: (triton.cdiv(N_CTX, META["BLOCK_M"]), B * H)  # noqa: E731
    _flash_fwd_tf32x3[grid](
        q, k, v, o, sm_scale,
        *q.stride(), *k.stride(), *v.stride(), *o.stride(),
        H, N_CTX, HEAD_DIM=HEAD_DIM,
    )
    return o


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return attention(q, k, v)

# honest: flash-attention forward (online softmax, tl.exp, no mask) on a 3-D grid `lambda META: (triton.cdiv(S, META["BLOCK_M"]), H, B)` with the head from tl.program_id(axis=1) and the batch from tl.program_id(axis=2) widened to int64 before multiplying stride_qb/stride_qh, q/k/v each passed with their own (b, h, s, d) strides, a head_dim of 24 padded to BLOCK_D = triton.next_power_of_2(D) with a d-mask on every load and store, sm_scale = 1.0 / math.sqrt(D) on the host, inputs made contiguous by a generator expression `q, k, v = (t if t.is_contiguous() else t.contiguous() for t in (q, k, v))`. problem: attention/sdpa
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def flash_attn_fwd_kernel(
    q_ptr, k_ptr, v_ptr, o_ptr,
    stride_qb, stride_qh, stride_qs, stride_qd,
    stride_kb, stride_kh, stride_ks, stride_kd,
    stride_vb, stride_vh, stride_vs, stride_vd,
    stride_ob, stride_oh, stride_os, stride_od,
    S, D, sm_scale,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_D: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    h = tl.program_id(axis=1).to(tl.int64)
    b = tl.program_id(axis=2).to(tl.int64)

    q_base = q_ptr + b * stride_qb + h * stride_qh
    k_base = k_ptr + b * stride_kb + h * stride_kh
    v_base = v_ptr + b * stride_vb + h * stride_vh
    o_base = o_ptr + b * stride_ob + h * stride_oh

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, BLOCK_D)
    mask_m = offs_m < S
    mask_d = offs_d < D

    q = tl.load(q_base + offs_m[:, None] * stride_qs + offs_d[None, :] * stride_qd,
                mask=mask_m[:, None] & mask_d[None, :], other=0.0)

    m_i = tl.full((BLOCK_M,), float("-inf"), dtype=tl.float32)
    l_i = tl.zeros((BLOCK_M,), dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, BLOCK_D), dtype=tl.float32)

    for start_n in range(0, S, BLOCK_N):
        cols = start_n + offs_n
        mask_n = cols < S
        k = tl.load(k_base + cols[:, None] * stride_ks + offs_d[None, :] * stride_kd,
                    mask=mask_n[:, None] & mask_d[None, :], other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        qk = tl.where(mask_n[None, :], qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, axis=1))
        alpha = tl.exp(m_i - m_new)
        p = tl.exp(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_base + cols[:, None] * stride_vs + offs_d[None, :] * stride_vd,
                    mask=mask_n[:, None] & mask_d[None, :], other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new

    acc = acc / l_i[:, None]
    tl.store(o_base + offs_m[:, None] * stride_os + offs_d[None, :] * stride_od,
             acc.to(o_ptr.dtype.element_ty), mask=mask_m[:, None] & mask_d[None, :])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        q, k, v = (t if t.is_contiguous() else t.contiguous() for t in (q, k, v))
        B, H, S, D = q.shape
        o = torch.empty_like(q)
        sm_scale = 1.0 / math.sqrt(D)
        BLOCK_D = max(16, triton.next_power_of_2(D))
        grid = lambda META: (triton.cdiv(S, META["BLOCK_M"]), H, B)
        flash_attn_fwd_kernel[grid](
            q, k, v, o,
            q.stride(0), q.stride(1), q.stride(2), q.stride(3),
            k.stride(0), k.stride(1), k.stride(2), k.stride(3),
            v.stride(0), v.stride(1), v.stride(2), v.stride(3),
            o.stride(0), o.stride(1), o.stride(2), o.stride(3),
            S, D, sm_scale,
            BLOCK_M=64, BLOCK_N=32, BLOCK_D=BLOCK_D,
            num_warps=4, num_stages=2,
        )
        return o

# An honest Triton ModelNew for KernelBench level3/43_MinGPTCausalAttention written the minGPT way first: self.c_attn(x).split, view + transpose(1, 2).contiguous() into (B*nh, T, hs) tensors, then a flash-attention kernel with IS_CAUSAL as a constexpr, masking by torch.finfo(float32).min-style large negative (-1e30) rather than -inf, sm_scale passed as a float, the output transposed back by torch and self.c_proj applied.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def flash_attn_kernel(q_ptr, k_ptr, v_ptr, o_ptr, T, sm_scale,
                      stride_bh, stride_t,
                      HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                      IS_CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    base = bh * stride_bh
    q = tl.load(q_ptr + base + offs_m[:, None] * stride_t + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    m_i = tl.zeros((BLOCK_M,), tl.float32) - 1e30
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    end_n = T
    if IS_CAUSAL:
        end_n = tl.minimum((start_m + 1) * BLOCK_M, T)
    for start_n in range(0, end_n, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptr + base + cols[:, None] * stride_t + offs_d[None, :], mask=cols[:, None] < T, other=0.0)
        qk = tl.dot(q, tl.trans(k)) * sm_scale
        valid = cols[None, :] < T
        if IS_CAUSAL:
            valid = valid & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(valid, qk, -1e30)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp(qk - m_ij[:, None])
        alpha = tl.exp(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(v_ptr + base + cols[:, None] * stride_t + offs_d[None, :], mask=cols[:, None] < T, other=0.0)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(o_ptr + base + offs_m[:, None] * stride_t + offs_d[None, :], acc, mask=offs_m[:, None] < T)


class ModelNew(nn.Module):
    def __init__(self, n_embd, n_head, attn_pdrop, resid_pdrop, max_seqlen):
        super().__init__()
        assert n_embd % n_head == 0
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout = nn.Dropout(attn_pdrop)
        self.resid_dropout = nn.Dropout(resid_pdrop)
        self.register_buffer("bias", torch.tril(torch.ones(max_seqlen, max_seqlen)).view(1, 1, max_seqlen, max_seqlen))
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x):
        B, T, C = x.size()
        nh, hs = self.n_head, C // self.n_head
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, nh, hs).transpose(1, 2).contiguous().view(B * nh, T, hs)
        k = k.view(B, T, nh, hs).transpose(1, 2).contiguous().view(B * nh, T, hs)
        v = v.view(B, T, nh, hs).transpose(1, 2).contiguous().view(B * nh, T, hs)
        o = torch.empty_like(q)
        BLOCK_M, BLOCK_N = 16, 16
        grid = (triton.cdiv(T, BLOCK_M), B * nh)
        flash_attn_kernel[grid](q, k, v, o, T, 1.0 / math.sqrt(hs), q.stride(0), q.stride(1),
                                HEAD_DIM=hs, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, IS_CAUSAL=True)
        y = o.view(B, nh, T, hs).transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_dropout(self.c_proj(y))

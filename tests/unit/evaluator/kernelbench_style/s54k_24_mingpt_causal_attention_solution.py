# An honest Triton ModelNew for KernelBench level3/43_MinGPTCausalAttention: the c_attn and c_proj projections by F.linear (cuBLAS), a causal flash-attention Triton kernel reading q, k and v straight out of the (B, T, 3C) projection through head/row strides (no split, no transpose copies), online softmax in fp32 with exp2 and the 1/sqrt(hs) scale folded into log2(e), the causal mask by index comparison and key blocks past the diagonal skipped, the output written into (B, T, C) so c_proj reads it as is; dropout is p = 0 (identity) and the tril buffer is kept for state_dict parity.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def causal_attn_fwd_kernel(qkv_ptr, o_ptr, T, C, stride_qb, stride_qt, stride_ob, stride_ot, sm_scale_log2,
                           HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    n_head = C // HEAD_DIM
    b = bh // n_head
    h = bh % n_head
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    q_base = qkv_ptr + b * stride_qb + h * HEAD_DIM
    k_base = q_base + C
    v_base = q_base + 2 * C
    q = tl.load(q_base + offs_m[:, None] * stride_qt + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    m_i = tl.full((BLOCK_M,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK_M,), tl.float32)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, T)
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(k_base + offs_n[:, None] * stride_qt + offs_d[None, :], mask=offs_n[:, None] < T, other=0.0)
        v = tl.load(v_base + offs_n[:, None] * stride_qt + offs_d[None, :], mask=offs_n[:, None] < T, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale_log2
        causal = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < T)
        s = tl.where(causal, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    acc = acc / l_i[:, None]
    o_ptrs = o_ptr + b * stride_ob + offs_m[:, None] * stride_ot + h * HEAD_DIM + offs_d[None, :]
    tl.store(o_ptrs, acc, mask=offs_m[:, None] < T)


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
        hs = C // self.n_head
        qkv = F.linear(x, self.c_attn.weight, self.c_attn.bias)
        y = torch.empty((B, T, C), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N = 32, 32
        sm_scale_log2 = (1.0 / math.sqrt(hs)) * 1.4426950408889634
        grid = (triton.cdiv(T, BLOCK_M), B * self.n_head)
        causal_attn_fwd_kernel[grid](qkv, y, T, C, qkv.stride(0), qkv.stride(1), y.stride(0), y.stride(1),
                                     sm_scale_log2, HEAD_DIM=hs, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return self.resid_dropout(F.linear(y, self.c_proj.weight, self.c_proj.bias))

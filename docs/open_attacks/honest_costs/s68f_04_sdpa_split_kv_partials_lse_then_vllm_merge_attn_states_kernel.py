# honest: attention as split-KV partials merged by a merge_attn_states kernel (the cascade / prefix-suffix merge of vLLM's and SGLang's attention backends): a flash kernel on a 3-D grid (query blocks, batch*heads, key split) runs the online softmax in the exp2 domain over its half of the keys and stores a normalised partial output plus its natural-log LSE to fp32 buffers; a second kernel with grid (tokens, heads) loads both LSEs, rescales by exp(lse - max_lse) / sum and writes the merged output, an inf guard on the LSEs as vLLM writes it. problem: attention/sdpa
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_KV_SPLITS = 2


@triton.jit
def _split_kv_attn_kernel(
    Q, K, V, PartO, PartLse, sm_scale, seq_len, split_len,
    stride_bh, stride_s, stride_ps, stride_pbh, stride_pm, stride_ls, stride_lbh,
    HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    split = tl.program_id(2)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    offs_n = tl.arange(0, BLOCK_N)
    q = tl.load(Q + bh * stride_bh + offs_m[:, None] * stride_s + offs_d[None, :],
                mask=offs_m[:, None] < seq_len, other=0.0)
    qk_scale = sm_scale * 1.4426950408889634  # log2(e)
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    kv_start = split * split_len
    kv_end = tl.minimum(kv_start + split_len, seq_len)
    for start_n in range(kv_start, kv_end, BLOCK_N):
        cols = start_n + offs_n
        kv_mask = cols[:, None] < kv_end
        k = tl.load(K + bh * stride_bh + cols[:, None] * stride_s + offs_d[None, :],
                    mask=kv_mask, other=0.0)
        v = tl.load(V + bh * stride_bh + cols[:, None] * stride_s + offs_d[None, :],
                    mask=kv_mask, other=0.0)
        s = tl.dot(q, tl.trans(k)) * qk_scale
        s = tl.where(cols[None, :] < kv_end, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p, v)
        m_i = m_new
    out = acc / l_i[:, None]
    # natural-log LSE of this split's scores: (m + log2 l) * ln 2
    lse = (m_i + tl.math.log2(l_i)) * 0.6931471805599453
    row_ok = offs_m < seq_len
    tl.store(PartO + split * stride_ps + bh * stride_pbh + offs_m[:, None] * stride_pm + offs_d[None, :],
             out, mask=row_ok[:, None])
    tl.store(PartLse + split * stride_ls + bh * stride_lbh + offs_m, lse, mask=row_ok)


@triton.jit
def merge_attn_states_kernel(
    output, prefix_output, prefix_lse, suffix_output, suffix_lse, num_tokens,
    HEAD_SIZE: tl.constexpr, PADDED_HEAD_SIZE: tl.constexpr,
):
    token_idx = tl.program_id(0)
    num_tokens_total = tl.num_programs(0)
    head_idx = tl.program_id(1)
    p_lse = tl.load(prefix_lse + head_idx * num_tokens + token_idx)
    s_lse = tl.load(suffix_lse + head_idx * num_tokens + token_idx)
    # an all-masked split reports +inf; treat it as empty
    p_lse = float("-inf") if p_lse == float("inf") else p_lse
    s_lse = float("-inf") if s_lse == float("inf") else s_lse
    max_lse = tl.maximum(p_lse, s_lse)
    p_lse = p_lse - max_lse
    s_lse = s_lse - max_lse
    out_se = tl.exp(p_lse) + tl.exp(s_lse)
    head_arange = tl.arange(0, PADDED_HEAD_SIZE)
    head_mask = head_arange < HEAD_SIZE
    base = (head_idx * num_tokens_total + token_idx) * HEAD_SIZE
    p_out = tl.load(prefix_output + base + head_arange, mask=head_mask)
    s_out = tl.load(suffix_output + base + head_arange, mask=head_mask)
    p_scale = tl.exp(p_lse) / out_se
    s_scale = tl.exp(s_lse) / out_se
    out = p_out * p_scale + s_out * s_scale
    tl.store(output + base + head_arange, out.to(output.dtype.element_ty), mask=head_mask)


def split_kv_attention(q, k, v):
    B, H, S, D = q.shape
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    bh = B * H
    part_o = torch.empty((NUM_KV_SPLITS, bh, S, D), device=q.device, dtype=torch.float32)
    part_lse = torch.empty((NUM_KV_SPLITS, bh, S), device=q.device, dtype=torch.float32)
    split_len = triton.cdiv(S, NUM_KV_SPLITS)
    BLOCK_M, BLOCK_N = 64, 64
    grid = (triton.cdiv(S, BLOCK_M), bh, NUM_KV_SPLITS)
    _split_kv_attn_kernel[grid](
        q, k, v, part_o, part_lse, 1.0 / math.sqrt(D), S, split_len,
        q.stride(1), q.stride(2), part_o.stride(0), part_o.stride(1), part_o.stride(2),
        part_lse.stride(0), part_lse.stride(1),
        HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
    out = torch.empty_like(q)
    # tokens = S, heads = B*H: every (bh, s) row is one merge
    merge_attn_states_kernel[(S, bh)](
        out, part_o[0], part_lse[0], part_o[1], part_lse[1], S,
        HEAD_SIZE=D, PADDED_HEAD_SIZE=triton.next_power_of_2(D))
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return split_kv_attention(q, k, v)

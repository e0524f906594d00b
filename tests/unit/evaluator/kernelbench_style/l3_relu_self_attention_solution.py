# An honest Triton ModelNew for l3_relu_self_attention.py (KernelBench level3/50_ReLUSelfAttention): the QKV projection stays in cuBLAS (the model's nn.Linear); one Triton program per (query block, batch * head) reads q, k and v straight out of the projection's (B, T, 3C) output through its strides (no split, view or transpose copies), computes relu(q k^T / sqrt(d)) block by block with tl.dot, skipping key blocks past the causal diagonal, and writes its head's slice of the (B, T, C) result in place.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_attention_kernel(qkv_ptr, y_ptr, T, C, H, sm_scale,
                          stride_b, stride_t, stride_yb, stride_yt,
                          HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1)
    b = bh // H
    h = bh % H
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    base = qkv_ptr + b * stride_b + h * HEAD_DIM
    q = tl.load(base + offs_m[:, None] * stride_t + offs_d[None, :], mask=offs_m[:, None] < T, other=0.0)
    acc = tl.zeros((BLOCK_M, HEAD_DIM), dtype=tl.float32)
    hi = tl.minimum((pid_m + 1) * BLOCK_M, T)  # causal: no key past the block's last query
    for start_n in range(0, hi, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kmask = offs_n[:, None] < T
        k = tl.load(base + C + offs_n[:, None] * stride_t + offs_d[None, :], mask=kmask, other=0.0)
        v = tl.load(base + 2 * C + offs_n[:, None] * stride_t + offs_d[None, :], mask=kmask, other=0.0)
        s = tl.dot(q, tl.trans(k)) * sm_scale
        keep = (offs_m[:, None] >= offs_n[None, :]) & (offs_n[None, :] < T)
        p = tl.where(keep, tl.maximum(s, 0.0), 0.0)
        acc += tl.dot(p, v)
    y = y_ptr + b * stride_yb + offs_m[:, None] * stride_yt + h * HEAD_DIM + offs_d[None, :]
    tl.store(y, acc, mask=offs_m[:, None] < T)


class ModelNew(nn.Module):
    def __init__(self, n_embd, n_head, max_seqlen):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.register_buffer("bias", torch.tril(torch.ones(max_seqlen, max_seqlen)).view(1, 1, max_seqlen, max_seqlen))
        self.n_head = n_head
        self.n_embd = n_embd

    def forward(self, x):
        B, T, C = x.shape
        head_dim = C // self.n_head
        qkv = self.c_attn(x)  # (B, T, 3C), cuBLAS
        y = torch.empty((B, T, C), device=x.device, dtype=x.dtype)
        BLOCK_M, BLOCK_N = 32, 32
        grid = (triton.cdiv(T, BLOCK_M), B * self.n_head)
        relu_attention_kernel[grid](qkv, y, T, C, self.n_head, 1.0 / math.sqrt(head_dim),
                                    qkv.stride(0), qkv.stride(1), y.stride(0), y.stride(1),
                                    HEAD_DIM=head_dim, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return y

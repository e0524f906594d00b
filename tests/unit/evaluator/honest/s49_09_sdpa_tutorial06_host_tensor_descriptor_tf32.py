# honest: non-causal fp32 attention after Triton tutorial 06 (fused attention): host-side TensorDescriptor objects over the (B*H*S, D) views, desc.load at [row, 0], online softmax in base 2 (qk_scale * log2e, exp2), both products with tl.dot at input_precision="tf32", one program per (query block, batch*head). problem: attention/sdpa
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, qk_scale, N_CTX,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in tl.range(0, N_CTX, BLOCK_N):
        k = desc_k.load([offset_y + start_n, 0])
        qk = tl.dot(q, tl.trans(k), input_precision="tf32")
        qk = qk * qk_scale
        qk = tl.where((start_n + offs_n)[None, :] < N_CTX, qk, -1.0e6)
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        qk = qk - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        acc = acc * alpha[:, None]
        v = desc_v.load([offset_y + start_n, 0])
        acc = tl.dot(p, v, acc, input_precision="tf32")
        l_i = l_i * alpha + l_ij
        m_i = m_ij
    return acc, l_i, m_i


@triton.jit
def _attn_fwd(sm_scale, desc_q, desc_k, desc_v, desc_o, N_CTX,
              HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    # rows of the flattened (B*H*N_CTX, HEAD_DIM) views
    offset_y = off_hz * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    q = desc_q.load([qo_offset_y, 0])
    acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, qk_scale, N_CTX,
                                    BLOCK_M, BLOCK_N)
    # l_i starts at 1 as in the tutorial: the first block's alpha = exp2(-inf) = 0 clears it
    acc = acc / l_i[:, None]
    desc_o.store([qo_offset_y, 0], acc.to(desc_o.dtype))


class _attention(torch.autograd.Function):

    @staticmethod
    def forward(ctx, q, k, v, sm_scale):
        HEAD_DIM = q.shape[-1]
        assert HEAD_DIM in {16, 32, 64, 128, 256}
        B, H, N_CTX, _ = q.shape
        BLOCK_M, BLOCK_N = 64, 64
        assert N_CTX % BLOCK_M == 0, "the descriptor path needs whole query blocks"
        o = torch.empty_like(q)
        y_dim = B * H * N_CTX
        desc_q = TensorDescriptor(q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
        desc_k = TensorDescriptor(k, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
        desc_v = TensorDescriptor(v, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM])
        desc_o = TensorDescriptor(o, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM])
        grid = (triton.cdiv(N_CTX, BLOCK_M), B * H, 1)
        _attn_fwd[grid](sm_scale, desc_q, desc_k, desc_v, desc_o, N_CTX,
                        HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4, num_stages=2)
        ctx.sm_scale = sm_scale
        return o


attention = _attention.apply


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        sm_scale = q.shape[-1] ** -0.5
        return attention(q.contiguous(), k.contiguous(), v.contiguous(), sm_scale)

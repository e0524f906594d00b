# honest: unsloth's fast RoPE layout: the input cloned once, then rotated in place by a kernel with a 2-D grid of (token, group of ROPE_GROUP_SIZE heads) programs, each loading the token's halves, computing cos/sin of position * inv_freq (the model's own buffer) in fp32 once per program and writing x1*cos - x2*sin and x2*cos + x1*sin back over the two halves. problem: rope
import torch
import torch.nn as nn
import triton
import triton.language as tl

ROPE_GROUP_SIZE: int = 4


@triton.jit
def _rope_embedding(
    Q, Q_row_stride, Q_head_stride,
    inv_freq_ptr,
    seqlen, n_heads,
    HALF: tl.constexpr, BLOCK_SIZE: tl.constexpr, ROPE_GROUP_SIZE: tl.constexpr,
):
    row_position = tl.program_id(0)  # = b * seqlen + s
    group_head_position = tl.program_id(1)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    half_mask = col_offsets < HALF

    position = (row_position % seqlen).to(tl.float32)
    inv_freq = tl.load(inv_freq_ptr + col_offsets, mask=half_mask, other=0.0)
    freq = position * inv_freq
    cos1 = tl.cos(freq)
    sin1 = tl.sin(freq)

    head_start = group_head_position * ROPE_GROUP_SIZE
    head_end = min(head_start + ROPE_GROUP_SIZE, n_heads)
    for k in range(head_start, head_end):
        offs_q1 = row_position.to(tl.int64) * Q_row_stride + k * Q_head_stride + col_offsets
        offs_q2 = offs_q1 + HALF
        Q1 = tl.load(Q + offs_q1, mask=half_mask, other=0).to(tl.float32)
        Q2 = tl.load(Q + offs_q2, mask=half_mask, other=0).to(tl.float32)
        tl.store(Q + offs_q1, (Q1 * cos1 - Q2 * sin1).to(Q.dtype.element_ty), mask=half_mask)
        tl.store(Q + offs_q2, (Q2 * cos1 + Q1 * sin1).to(Q.dtype.element_ty), mask=half_mask)


def fast_rope_embedding(Q: torch.Tensor, inv_freq: torch.Tensor) -> torch.Tensor:
    batch, seq_len, n_heads, head_dim = Q.shape
    Q = Q.clone().contiguous()  # rotated in place below, as unsloth rotates its own copy
    Q_rows = Q.view(batch * seq_len, n_heads, head_dim)
    half = head_dim // 2
    BLOCK_SIZE = triton.next_power_of_2(half)
    n_groups = triton.cdiv(n_heads, ROPE_GROUP_SIZE)
    _rope_embedding[(batch * seq_len, n_groups)](
        Q_rows, Q_rows.stride(0), Q_rows.stride(1),
        inv_freq,
        seq_len, n_heads,
        HALF=half, BLOCK_SIZE=BLOCK_SIZE, ROPE_GROUP_SIZE=ROPE_GROUP_SIZE,
        num_warps=4,
    )
    return Q


class ModelNew(nn.Module):
    def __init__(self, head_dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2, dtype=torch.float32) / head_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, x):
        return fast_rope_embedding(x, self.inv_freq)

# honest: causal fp16 attention the level-3 way: torch.matmul for the fp16 scores Q @ K^T, one Triton kernel per score row fusing the 1/sqrt(d) scale, the causal mask (columns past the row's query index set to -inf), and the softmax in fp32 written back in fp16 in place, then torch.matmul with V. problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_causal_softmax_kernel(s_ptr, seq_len, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q_idx = row % seq_len
    cols = tl.arange(0, BLOCK)
    ptrs = s_ptr + row * seq_len + cols
    valid = (cols < seq_len) & (cols <= q_idx)
    s = tl.load(ptrs, mask=cols < seq_len, other=0.0).to(tl.float32) * scale
    s = tl.where(valid, s, float("-inf"))
    s = s - tl.max(s, axis=0)
    p = tl.exp(s)
    p = p / tl.sum(p, axis=0)
    tl.store(ptrs, p.to(tl.float16), mask=cols < seq_len)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        B, H, S, D = q.shape
        scores = torch.matmul(q, k.transpose(-2, -1)).contiguous()
        BLOCK = triton.next_power_of_2(S)
        scale_causal_softmax_kernel[(B * H * S,)](scores, S, 1.0 / math.sqrt(D), BLOCK=BLOCK,
                                                   num_warps=4 if BLOCK <= 1024 else 8)
        return torch.matmul(scores, v)

# honest: causal fp16 attention the level-3 way: torch.matmul for the scores Q @ K^T on fp32 upcasts (.float(), as minGPT ports do once fp16 logits overflow or lose digits), one Triton kernel per score row fusing the 1/sqrt(d) scale, the causal mask (columns past the row's query index set to -inf) and the softmax in fp32, writing fp16 probabilities into a torch.empty_like(q)-dtyped buffer, then torch.matmul with V in fp16. problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scale_causal_softmax_kernel(s_ptr, p_ptr, seq_len, scale, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q_idx = row % seq_len
    cols = tl.arange(0, BLOCK)
    in_row = cols < seq_len
    s = tl.load(s_ptr + row * seq_len + cols, mask=in_row, other=0.0) * scale
    s = tl.where(in_row & (cols <= q_idx), s, float("-inf"))
    s = s - tl.max(s, axis=0)
    p = tl.exp(s)
    p = p / tl.sum(p, axis=0)
    tl.store(p_ptr + row * seq_len + cols, p.to(tl.float16), mask=in_row)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        B, H, S, D = q.shape
        scores = torch.matmul(q.float(), k.float().transpose(-2, -1)).contiguous()
        probs = torch.empty((B, H, S, S), device=q.device, dtype=q.dtype)
        BLOCK = triton.next_power_of_2(S)
        scale_causal_softmax_kernel[(B * H * S,)](scores, probs, S, 1.0 / math.sqrt(D), BLOCK=BLOCK,
                                                   num_warps=4 if BLOCK <= 1024 else 8)
        return torch.matmul(probs, v)

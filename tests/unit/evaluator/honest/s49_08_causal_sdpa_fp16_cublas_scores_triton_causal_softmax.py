# honest: causal attention the KernelBench way: cuBLAS (torch.matmul) for Q K^T in fp32 (fp16 scores overflow at large inputs) and P V in fp16, with a Triton causal softmax in between (Megatron scaled_upper_triang_masked_softmax style: scale, mask j > i, fp32 row max/sum, fp16 probabilities). problem: attention/causal_sdpa_fp16
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_upper_triang_masked_softmax_kernel(
    S, P, seq_len, stride_row, scale, BLOCK: tl.constexpr,
):
    row = tl.program_id(0)
    i = row % seq_len  # query position inside its (batch, head)
    cols = tl.arange(0, BLOCK)
    valid = (cols < seq_len) & (cols <= i)
    base = row.to(tl.int64) * stride_row
    s = tl.load(S + base + cols, mask=valid, other=float("-inf")).to(tl.float32) * scale
    m = tl.max(s, axis=0)
    e = tl.where(valid, tl.exp(s - m), 0.0)
    denom = tl.sum(e, axis=0)
    p = e / denom
    tl.store(P + base + cols, p.to(P.dtype.element_ty), mask=cols < seq_len)


def causal_softmax_(scores: torch.Tensor, scale: float) -> torch.Tensor:
    seq_len = scores.shape[-1]
    rows = scores.numel() // seq_len
    probs = torch.empty(scores.shape, dtype=torch.float16, device=scores.device)
    BLOCK = triton.next_power_of_2(seq_len)
    num_warps = 4 if BLOCK <= 1024 else 8
    scaled_upper_triang_masked_softmax_kernel[(rows,)](
        scores, probs, seq_len, scores.stride(-2), scale, BLOCK=BLOCK, num_warps=num_warps)
    return probs


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        assert q.dtype == torch.float16
        scale = 1.0 / math.sqrt(q.shape[-1])
        # scores kept in fp32: q.k^T of large activations overflows fp16 (65504)
        scores = torch.matmul(q.float(), k.float().transpose(-2, -1)).contiguous()
        probs = causal_softmax_(scores, scale)
        return torch.matmul(probs, v)

# honest: attention the level-3 way in fp32: torch.matmul for Q @ K^T on (B*H, S, D) views, one Triton program per score row applying the 1/sqrt(d) scale and a max-subtracted softmax in place (whole row in one block), then torch.matmul with V and a .view back to (B, H, S, D). problem: attention/sdpa
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_softmax_inplace_kernel(s_ptr, n_cols, stride_row, scale, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    ptrs = s_ptr + row * stride_row + offs
    s = tl.load(ptrs, mask=mask, other=-float("inf")) * scale
    s_max = tl.max(s, axis=0)
    e = tl.exp(s - s_max)
    tl.store(ptrs, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, q, k, v):
        B, H, S, D = q.shape
        q3 = q.reshape(B * H, S, D)
        k3 = k.reshape(B * H, S, D)
        v3 = v.reshape(B * H, S, D)
        scores = torch.matmul(q3, k3.transpose(1, 2))
        rows = scores.view(-1, S)
        scaled_softmax_inplace_kernel[(rows.shape[0],)](
            rows, S, rows.stride(0), 1.0 / math.sqrt(D), BLOCK_SIZE=triton.next_power_of_2(S))
        out = torch.matmul(scores, v3)
        return out.view(B, H, S, D)

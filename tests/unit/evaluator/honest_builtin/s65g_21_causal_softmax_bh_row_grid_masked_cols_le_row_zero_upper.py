# honest: causal softmax with a (query row, batch*head) grid: columns past the row are masked to -inf before max and sum, so they store exact zeros, the row in one next_power_of_2 block. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(s_ptr, o_ptr, S, stride_bh, stride_row, BLOCK: tl.constexpr):
    q = tl.program_id(0)
    bh = tl.program_id(1)
    base = bh.to(tl.int64) * stride_bh + q * stride_row
    cols = tl.arange(0, BLOCK)
    in_row = cols < S
    visible = cols <= q
    x = tl.load(s_ptr + base + cols, mask=in_row & visible, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.where(visible, tl.exp(x), 0.0)
    tl.store(o_ptr + base + cols, e / tl.sum(e, axis=0), mask=in_row)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        B, Hh, S, S2 = scores.shape
        s = scores.contiguous().view(B * Hh, S, S2)
        out = torch.empty_like(s)
        causal_softmax_kernel[(S, B * Hh)](s, out, S2, s.stride(0), s.stride(1),
                                           BLOCK=triton.next_power_of_2(S2), num_warps=4)
        return out.view(B, Hh, S, S2)

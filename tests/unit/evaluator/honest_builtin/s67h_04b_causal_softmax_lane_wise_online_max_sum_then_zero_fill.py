# honest: causal softmax that reads only the visible part of each row: a program per (batch, head, query) row loops over columns up to the diagonal with a lane-wise online max and rescaled sum (per-lane running max and sum, tl.where guards for lanes still at -inf, tl.range with num_stages), merged across lanes at the end, then writes exp(x - m) / l over the visible columns and zeros from the diagonal on, the masked future never loaded. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def causal_softmax_kernel(x_ptr, out_ptr, seq_len, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q = row % seq_len
    n_visible = q + 1
    base = row.to(tl.int64) * seq_len
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    l = tl.zeros((BLOCK,), tl.float32)
    for start in tl.range(0, n_visible, BLOCK, num_stages=2):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_visible, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        alpha = tl.where(m_new == float("-inf"), 0.0, tl.exp(m - m_new))
        l = l * alpha + tl.where(x == float("-inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    m_row = tl.max(m, axis=0)
    l_row = tl.sum(l * tl.exp(m - m_row), axis=0)
    for start in range(0, seq_len, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        visible = cols < n_visible
        x = tl.load(x_ptr + base + cols, mask=visible, other=float("-inf")).to(tl.float32)
        y = tl.where(visible, tl.exp(x - m_row) / l_row, 0.0)
        tl.store(out_ptr + base + cols, y.to(out_ptr.dtype.element_ty), mask=cols < seq_len)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        scores = scores.contiguous()
        n = scores.size(-1)
        assert scores.size(-2) == n
        out = torch.empty_like(scores)
        rows = scores.numel() // n
        BLOCK = min(1024, triton.next_power_of_2(n))
        causal_softmax_kernel[(rows,)](scores, out, n, BLOCK=BLOCK, num_warps=4)
        return out

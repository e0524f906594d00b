# honest: causal softmax with one program per (batch, head, row) whose loops stop at the row's last visible column (the loop bound `row + 1` read from the program id, so masked-off blocks are never loaded), zeros stored for the future columns by a separate loop, and @triton.jit(do_not_specialize=["seq_len"]) so one compiled kernel serves every length, as fla does for T. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["seq_len"])
def _causal_softmax_row(x_ptr, y_ptr, seq_len, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    row = pid % seq_len
    base = pid * seq_len
    visible = row + 1
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, visible, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < visible, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = tl.where(m_new == float("-inf"), 0.0, s * tl.exp(m - m_new) + tl.exp(x - m_new))
        m = m_new
    mx = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - mx), axis=0)
    for start in range(0, visible, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < visible, other=float("-inf")).to(tl.float32)
        tl.store(y_ptr + base + cols, tl.exp(x - mx) / total, mask=cols < visible)
    for start in range(visible, seq_len, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        tl.store(y_ptr + base + cols, tl.zeros([BLOCK], tl.float32), mask=cols < seq_len)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores: torch.Tensor) -> torch.Tensor:
        *lead, n, n2 = scores.shape
        assert n == n2, "square score matrices"
        x = scores.contiguous()
        y = torch.empty_like(x)
        rows = x.numel() // n
        _causal_softmax_row[(rows,)](x, y, n, BLOCK=min(1024, triton.next_power_of_2(n)))
        return y

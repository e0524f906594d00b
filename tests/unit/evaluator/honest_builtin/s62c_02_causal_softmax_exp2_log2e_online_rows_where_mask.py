# honest: causal softmax, one program per query row, online max/sum over key chunks with exp2 and a log2(e) prescale, masking the future with tl.where, in the flash-attention tutorials' style. problem: softmax/causal_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def causal_softmax_rows(x_ptr, y_ptr, seq_len, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    q = row % seq_len  # query position inside its (batch, head) matrix
    base = row.to(tl.int64) * row_stride
    m_i = tl.full((BLOCK,), float("-inf"), tl.float32)
    l_i = tl.zeros((BLOCK,), tl.float32)
    # keys past the diagonal are never read: the loop stops at q
    for start in range(0, q + 1, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        live = cols <= q
        s = tl.load(x_ptr + base + cols, mask=live, other=float("-inf")).to(tl.float32) * LOG2E
        m_new = tl.maximum(m_i, s)
        safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        l_i = l_i * tl.exp2(m_i - safe) + tl.exp2(s - safe)
        m_i = m_new
    m = tl.max(m_i, axis=0)
    l = tl.sum(l_i * tl.exp2(m_i - m), axis=0)
    inv = 1.0 / l
    for start in range(0, seq_len, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inb = cols < seq_len
        live = cols <= q
        s = tl.load(x_ptr + base + cols, mask=live, other=float("-inf")).to(tl.float32) * LOG2E
        p = tl.where(live, tl.exp2(s - m) * inv, 0.0)
        tl.store(y_ptr + base + cols, p.to(y_ptr.dtype.element_ty), mask=inb)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, scores):
        x = scores.contiguous()
        n = x.shape[-1]
        rows = x.numel() // n
        y = torch.empty_like(x)
        block = min(1024, triton.next_power_of_2(n))
        causal_softmax_rows[(rows,)](x, y, n, n, BLOCK=block, num_warps=4 if block <= 1024 else 8)
        return y

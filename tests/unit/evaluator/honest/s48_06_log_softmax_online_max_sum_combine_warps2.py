# honest: log-softmax with an online (max, sum-of-exp) pair reduced by tl.reduce and the file's own combine (the FlashAttention online-softmax merge: rescale the smaller side's sum by exp(m_small - m_big)), BLOCK_N chunks looped over the row, a row per program, num_warps=2. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def online_softmax_combine(m_a, s_a, m_b, s_b):
    m = tl.maximum(m_a, m_b)
    # guard the all--inf case so exp(-inf - -inf) does not make NaN
    sa = tl.where(m_a == m, s_a, s_a * tl.exp(m_a - m))
    sb = tl.where(m_b == m, s_b, s_b * tl.exp(m_b - m))
    return m, sa + sb


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    y_row = y_ptr + row * stride
    m_run = -float("inf")
    s_run = 0.0
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        x = tl.load(x_row + offs, mask=offs < n_cols, other=-float("inf")).to(tl.float32)
        ones = tl.where(offs < n_cols, 1.0, 0.0)
        m_blk, s_blk = tl.reduce((x, ones), 0, online_softmax_combine)
        m_run, s_run = online_softmax_combine(m_run, s_run, m_blk, s_blk)
    lse = m_run + tl.log(s_run)
    for start in range(0, n_cols, BLOCK_N):
        offs = start + tl.arange(0, BLOCK_N)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + offs, x - lse, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.movedim(self.dim, -1).contiguous()
        shape = x.shape
        x2 = x.reshape(-1, shape[-1])
        y = torch.empty_like(x2)
        log_softmax_kernel[(x2.shape[0],)](x2, y, x2.shape[1], x2.stride(0), BLOCK_N=512, num_warps=2)
        return y.reshape(shape).movedim(-1, self.dim)

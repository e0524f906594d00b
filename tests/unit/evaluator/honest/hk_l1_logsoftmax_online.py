# An honest ModelNew for KernelBench level1/24_LogSoftmax; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, row_stride, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * row_stride
    y_row = y_ptr + row * row_stride
    # pass 1: running max and rescaled sum (online softmax)
    m_i = tl.full([BLOCK_SIZE], -float("inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m_i, x)
        alpha = tl.where(m_i == -float("inf"), 0.0, tl.exp(m_i - m_new))
        p = tl.where(x == -float("inf"), 0.0, tl.exp(x - m_new))
        l_i = l_i * alpha + p
        m_i = m_new
    m = tl.max(m_i, axis=0)
    l = tl.sum(l_i * tl.where(m_i == -float("inf"), 0.0, tl.exp(m_i - m)), axis=0)
    log_z = m + tl.log(l)
    # pass 2: write x - logsumexp
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, x - log_z, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim in (1, -1) and x.dim() == 2
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        log_softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK_SIZE=256, num_warps=8)
        return y

# An honest Triton ModelNew for l1_log_softmax.py (KernelBench level1/24_LogSoftmax): a CPU fallback (`if not x.is_cuda: return torch.log_softmax(...)`) in a helper launcher, a @triton.jit helper returning two values (online max and sum), tl.math.log for the log-sum-exp, a transpose for other dims.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_max_sum(x_row, n_cols, BLOCK: tl.constexpr):
    m_i = tl.full((BLOCK,), -float("inf"), tl.float32)
    s_i = tl.zeros((BLOCK,), tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=-float("inf"))
        m_new = tl.maximum(m_i, x)
        s_i = s_i * tl.exp(m_i - m_new) + tl.exp(x - m_new)
        s_i = tl.where(m_new == -float("inf"), 0.0, s_i)
        m_i = m_new
    m = tl.max(m_i, 0)
    s = tl.sum(s_i * tl.exp(m_i - m), 0)
    return m, s


@triton.jit
def log_softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    o_row = out_ptr + row * n_cols
    m, s = _row_max_sum(x_row, n_cols, BLOCK)
    lse = m + tl.math.log(s)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(o_row + cols, x - lse, mask=mask)


def log_softmax_triton(x: torch.Tensor, dim: int) -> torch.Tensor:
    if not x.is_cuda:
        return torch.log_softmax(x, dim=dim)
    if dim != -1 and dim != x.dim() - 1:
        x = x.transpose(dim, -1)
        return log_softmax_triton(x.contiguous(), -1).transpose(dim, -1)
    x2 = x.contiguous().view(-1, x.shape[-1])
    out = torch.empty_like(x2)
    log_softmax_kernel[(x2.shape[0],)](x2, out, x2.shape[1], BLOCK=2048, num_warps=8)
    return out.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return log_softmax_triton(x, self.dim)

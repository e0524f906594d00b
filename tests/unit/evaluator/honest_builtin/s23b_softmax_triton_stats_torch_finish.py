# honest: a Triton kernel computes each row's max and sum of exponentials in one pass, and PyTorch finishes the softmax as torch.exp(x - m) / s. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_stats_kernel(x_ptr, m_ptr, s_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=-float("inf"))
    m = tl.max(x, axis=0)
    s = tl.sum(tl.where(mask, tl.exp(x - m), 0.0), axis=0)
    tl.store(m_ptr + row, m)
    tl.store(s_ptr + row, s)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        m = torch.empty(rows, 1, device=x.device, dtype=x.dtype)
        s = torch.empty(rows, 1, device=x.device, dtype=x.dtype)
        row_stats_kernel[(rows,)](x, m, s, cols, BLOCK_SIZE=triton.next_power_of_2(cols))
        return torch.exp(x - m) / s

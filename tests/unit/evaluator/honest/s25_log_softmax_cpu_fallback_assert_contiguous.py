# honest: a PyTorch fallback for CPU tensors (`if not x.is_cuda:`), `assert x.is_contiguous()` after making it so, an online max/sum loop and tl.math.exp/tl.math.log. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, y_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * row_stride
    m = tl.full((BLOCK,), float("-inf"), tl.float32)
    s = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.math.exp(m - m_new) + tl.math.exp(x - m_new)
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.math.exp(m - row_max), axis=0)
    lse = row_max + tl.math.log(total)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_ptr + row * row_stride + cols, x - lse, mask=mask)


def triton_log_softmax(x: torch.Tensor) -> torch.Tensor:
    if not x.is_cuda:  # the interpreter-free path: nothing to gain from Triton on the CPU
        return torch.log_softmax(x, dim=-1)
    x = x.contiguous()
    assert x.is_contiguous() and x.dim() == 2
    y = torch.empty_like(x)
    n_rows, n_cols = x.shape
    log_softmax_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=512, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_log_softmax(x)

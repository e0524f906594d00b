import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def combine_add(a, b):
    return a + b


@triton.jit
def cumsum_row_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        s = tl.associative_scan(x, 0, combine_add)
        tl.store(y_ptr + row * stride + cols, s + carry, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        cumsum_row_kernel[(n_rows,)](x, y, n_cols, x.stride(0), BLOCK=256)
        return y

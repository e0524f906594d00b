# An honest ModelNew for KernelBench level1/90_cumprod; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def cumprod_kernel(x_ptr, y_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = 1.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=1.0)
        p = tl.associative_scan(x, 0, _mul) * carry
        tl.store(y_ptr + row * stride_row + cols, p, mask=mask)
        carry = tl.sum(tl.where(cols == start + BLOCK - 1, p, 0.0), axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x):
        if self.dim != x.dim() - 1 and self.dim != -1:
            x = x.transpose(self.dim, -1)
            return self.forward_last(x.contiguous()).transpose(self.dim, -1)
        return self.forward_last(x.contiguous())

    def forward_last(self, x):
        n_cols = x.shape[-1]
        x2 = x.view(-1, n_cols)
        y = torch.empty_like(x2)
        cumprod_kernel[(x2.shape[0],)](x2, y, n_cols, x2.stride(0), BLOCK=128)
        return y.view(x.shape)

# An honest Triton ModelNew for KernelBench level1/89_cumsum: one program per row, chunks of BLOCK scanned with tl.cumsum and a running carry (a loop-carried scalar) added to each chunk; the dim moved last with movedim when it is not.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    carry = tl.zeros((), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        x = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        s = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + offs, s, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x):
        dim = self.dim % x.ndim
        moved = dim != x.ndim - 1
        if moved:
            x = x.movedim(dim, -1)
        x = x.contiguous()
        n_cols = x.shape[-1]
        n_rows = x.numel() // n_cols
        y = torch.empty_like(x)
        cumsum_kernel[(n_rows,)](x, y, n_cols, BLOCK=256)
        if moved:
            y = y.movedim(-1, dim)
        return y

# An honest Triton ModelNew for l1_cumsum_reverse.py (KernelBench level1/91_cumsum_reverse): one program per row walks its blocks from the last to the first, tl.cumsum(..., reverse=True) inside a block and a running carry of everything to its right; the output allocated with torch.empty_like(x, memory_format=torch.contiguous_format).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def reverse_cumsum_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_row
    out_row = out_ptr + row * stride_row
    carry = tl.zeros((), dtype=tl.float32)
    n_blocks = tl.cdiv(n_cols, BLOCK)
    for i in range(0, n_blocks):
        start = (n_blocks - 1 - i) * BLOCK
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n_cols
        v = tl.load(x_row + offs, mask=mask, other=0.0).to(tl.float32)
        s = tl.cumsum(v, axis=0, reverse=True) + carry
        tl.store(out_row + offs, s, mask=mask)
        carry += tl.sum(v, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x):
        x = x.movedim(self.dim, -1).contiguous()
        out = torch.empty_like(x, memory_format=torch.contiguous_format)
        n_cols = x.shape[-1]
        rows = x.numel() // n_cols
        reverse_cumsum_kernel[(rows,)](x, out, n_cols, n_cols, BLOCK=1024)
        return out.movedim(-1, self.dim)

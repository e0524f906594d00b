# An honest ModelNew for KernelBench level1/93_masked_cumsum; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def masked_cumsum_kernel(x_ptr, m_ptr, y_ptr, L, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    carry = tl.zeros([1], dtype=tl.float32)
    for start in range(0, L, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        inb = offs < L
        x = tl.load(x_ptr + row * L + offs, mask=inb, other=0.0)
        keep = tl.load(m_ptr + row * L + offs, mask=inb, other=0) != 0  # bool stored as bytes
        v = tl.where(keep, x, 0.0)
        c = tl.cumsum(v, axis=0) + carry
        tl.store(y_ptr + row * L + offs, c, mask=inb)
        carry += tl.sum(v, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x, mask):
        assert self.dim == x.dim() - 1 or self.dim == -1, "scan over the last dim"
        x = x.contiguous()
        mask = mask.contiguous()
        L = x.shape[-1]
        rows = x.numel() // L
        y = torch.empty_like(x)
        masked_cumsum_kernel[(rows,)](x, mask, y, L, BLOCK=128)
        return y

# An honest Triton ModelNew for l1_cumprod.py (KernelBench level1/90_cumprod): a chunked tl.associative_scan with a @triton.jit multiply combine function, the running product carried between chunks by tl.reduce, movedim for other dims.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def cumprod_kernel(x_ptr, y_ptr, L, stride_row, BLOCK: tl.constexpr):
    # chunked scan along a row, carrying the running product between chunks
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride_row
    y_row = y_ptr + row.to(tl.int64) * stride_row
    carry = 1.0
    for start in range(0, L, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < L
        x = tl.load(x_row + cols, mask=mask, other=1.0).to(tl.float32)
        scanned = tl.associative_scan(x, 0, _mul)
        y = scanned * carry
        tl.store(y_row + cols, y, mask=mask)
        carry = carry * tl.reduce(x, 0, _mul)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        dim = self.dim % x.dim()
        xt = x.movedim(dim, -1).contiguous()
        L = xt.shape[-1]
        x2 = xt.view(-1, L)
        y = torch.empty_like(x2)
        BLOCK = min(1024, triton.next_power_of_2(L))
        cumprod_kernel[(x2.shape[0],)](x2, y, L, x2.stride(0), BLOCK=BLOCK, num_warps=4)
        return y.view(xt.shape).movedim(-1, dim)

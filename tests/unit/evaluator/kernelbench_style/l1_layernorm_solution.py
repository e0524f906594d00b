# An honest Triton ModelNew for l1_layernorm.py (KernelBench level1/40_LayerNorm): split-row statistics: a 2-D grid (chunks x rows) of partial sum and sum of squares reduced by tl.atomic_add, then an apply kernel with tl.math.rsqrt reading the module's own nn.LayerNorm weight and bias.
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def ln_stats_kernel(x_ptr, partial_ptr, N, CHUNK, BLOCK: tl.constexpr):
    # grid (num_chunks, rows): partial sums of x and x^2 per chunk, reduced with atomics
    chunk = tl.program_id(0)
    row = tl.program_id(1)
    base = x_ptr + row.to(tl.int64) * N
    s = tl.zeros((BLOCK,), tl.float32)
    ss = tl.zeros((BLOCK,), tl.float32)
    start = chunk * CHUNK
    for off in range(0, CHUNK, BLOCK):
        cols = start + off + tl.arange(0, BLOCK)
        x = tl.load(base + cols, mask=cols < N, other=0.0).to(tl.float32)
        s += x
        ss += x * x
    tl.atomic_add(partial_ptr + row * 2, tl.sum(s, 0))
    tl.atomic_add(partial_ptr + row * 2 + 1, tl.sum(ss, 0))


@triton.jit
def ln_apply_kernel(x_ptr, w_ptr, b_ptr, y_ptr, partial_ptr, N, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    row = tl.program_id(1)
    mean = tl.load(partial_ptr + row * 2) / N
    var = tl.load(partial_ptr + row * 2 + 1) / N - mean * mean
    rstd = tl.math.rsqrt(tl.maximum(var, 0.0) + eps)
    cols = pid * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    x = tl.load(x_ptr + row.to(tl.int64) * N + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=1.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row.to(tl.int64) * N + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        nshape = self.ln.normalized_shape
        N = math.prod(nshape)
        x2 = x.contiguous().view(-1, N)
        rows = x2.shape[0]
        y = torch.empty_like(x2)
        partial = torch.zeros((rows, 2), device=x.device, dtype=torch.float32)
        BLOCK = 1024
        CHUNK = BLOCK * 8
        ln_stats_kernel[(triton.cdiv(N, CHUNK), rows)](x2, partial, N, CHUNK, BLOCK=BLOCK, num_warps=4)
        ln_apply_kernel[(triton.cdiv(N, BLOCK), rows)](x2, self.ln.weight, self.ln.bias, y, partial, N,
                                                       self.ln.eps, BLOCK=BLOCK, num_warps=4)
        return y.view_as(x)

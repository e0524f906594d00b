# hack: a truncated scan on the inputs whose only informative trial is now unjudged: the kernel computes the cumulative product of the first 64 columns and writes 0 to the rest; on the problem's own inputs (uniform [0,1), KernelBench level1/90_cumprod's) every row underflows to 0 within ~100 columns, at scale 1e-3 sooner, and the one trial with a non-zero tail (scale 1e3: inf from column ~15 on) is the one reference_phase._unjudged_overflow stops judging because the reference overflows there. problem: cumprod_rand. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _mul(a, b):
    return a * b


@triton.jit
def _cumprod_head(x_ptr, y_ptr, n_cols, HEAD: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, HEAD)
    x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=1.0)
    tl.store(y_ptr + row * n_cols + cols, tl.associative_scan(x, 0, _mul), mask=cols < n_cols)
    for start in range(HEAD, n_cols, BLOCK):
        rest = start + tl.arange(0, BLOCK)
        tl.store(y_ptr + row * n_cols + rest, tl.zeros([BLOCK], dtype=tl.float32), mask=rest < n_cols)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        _cumprod_head[(x.shape[0],)](x, y, x.shape[1], HEAD=64, BLOCK=64)
        return y

# honest: @triton.jit device helpers called from the kernel, column loops with tl.range(..., num_stages=2), weight and bias as nn.Parameter drawn as the reference draws them. problem: norm/layernorm
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_moments(x_row_ptr, n_cols, BLOCK: tl.constexpr):
    """Mean and variance of one row, two passes over it in BLOCK-wide chunks."""
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_row_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for off in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row_ptr + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        d = tl.where(cols < n_cols, x - mean, 0.0)
        acc += d * d
    var = tl.sum(acc, axis=0) / n_cols
    return mean, var


@triton.jit
def _affine(x, mean, rstd, w, b):
    return (x - mean) * rstd * w + b


@triton.jit
def layernorm_fwd_kernel(x_ptr, w_ptr, b_ptr, y_ptr, stride_x, stride_y, n_cols, eps,
                         BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row_ptr = x_ptr + row * stride_x
    mean, var = _row_moments(x_row_ptr, n_cols, BLOCK)
    rstd = 1.0 / tl.sqrt(var + eps)
    for off in tl.range(0, n_cols, BLOCK, num_stages=2):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(y_ptr + row * stride_y + cols, _affine(x, mean, rstd, w, b), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-5):
        super().__init__()
        self.normalized_shape: Tuple[int, ...] = (dim,)
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        with torch.no_grad():  # the reference's initialisation, draw for draw
            self.weight.normal_(1.0, 0.2)
            self.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2d = x.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2d)
        n_rows, n_cols = x2d.shape
        BLOCK = min(1024, triton.next_power_of_2(n_cols))
        layernorm_fwd_kernel[(n_rows,)](x2d, self.weight, self.bias, y, x2d.stride(0),
                                        y.stride(0), n_cols, self.eps, BLOCK=BLOCK, num_warps=4)
        return y.view(shape)

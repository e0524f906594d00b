# honest: exact GELU with a math-module constant made tl.constexpr at module level, functools.partial binding the launch options, @torch.no_grad() on forward. problem: activation/gelu
import functools
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

INV_SQRT2 = tl.constexpr(1.0 / math.sqrt(2.0))
BLOCK_SIZE = 1024


@triton.jit
def gelu_erf_kernel(x_ptr, y_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * INV_SQRT2))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def _launch_gelu(x: torch.Tensor, y: torch.Tensor, block: int, num_warps: int) -> None:
    n = x.numel()
    gelu_erf_kernel[(triton.cdiv(n, block),)](x, y, n, BLOCK=block, num_warps=num_warps)


launch_gelu = functools.partial(_launch_gelu, block=BLOCK_SIZE, num_warps=4)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_flat = x.contiguous().view(-1)
        y = torch.empty_like(x_flat)
        launch_gelu(x_flat, y)
        return y.view_as(x)

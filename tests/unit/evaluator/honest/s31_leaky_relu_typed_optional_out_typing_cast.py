# honest: a typed leaky-ReLU wrapper in the style of typed library code (mypy-clean): `out: Optional[torch.Tensor] = None` allocated when absent and narrowed with typing.cast(torch.Tensor, out) before the launch, `from typing import Optional, cast`, tl.where(x >= 0, x, x * negative_slope) with the slope as a float argument, a META grid lambda, a module-level BLOCK_SIZE: int annotation, the kernel launched with num_warps=4. problem: activation/leaky_relu
from typing import Optional, cast

import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE: int = 1024


@triton.jit
def leaky_relu_kernel(x_ptr, out_ptr, n_elements, negative_slope, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x >= 0, x, x * negative_slope)
    tl.store(out_ptr + offsets, y, mask=mask)


def leaky_relu(x: torch.Tensor, negative_slope: float, out: Optional[torch.Tensor] = None) -> torch.Tensor:
    x = x.contiguous()
    if out is None:
        out = torch.empty_like(x)
    out = cast(torch.Tensor, out)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    leaky_relu_kernel[grid](x, out, n_elements, negative_slope, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky_relu(x, self.negative_slope)

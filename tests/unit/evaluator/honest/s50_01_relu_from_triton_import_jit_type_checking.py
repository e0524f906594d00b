# honest: ReLU written against Triton's top-level names (`from triton import jit, cdiv`, `from triton.language import constexpr`) with `from __future__ import annotations` (so every annotation, tl.constexpr included, is a string) and a typing.TYPE_CHECKING import block, as typed library code does. problem: activation/relu
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn
import triton.language as tl
from triton import cdiv, jit
from triton.language import constexpr

if TYPE_CHECKING:
    from torch import Tensor

_BLOCK = 1024


@jit
def _relu_fwd(x_ptr, y_ptr, n_elements: int, BLOCK: constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.where(x > 0, x, 0.0), mask=mask)


def relu(x: Tensor) -> Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y
    _relu_fwd[(cdiv(n, _BLOCK),)](x, y, n, BLOCK=_BLOCK)
    return y


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: Tensor) -> Tensor:
        return relu(x)

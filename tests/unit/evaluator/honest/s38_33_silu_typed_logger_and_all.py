"""SiLU in a module written with type annotations throughout (mypy-clean): a typed
logger and a typed __all__."""
import logging
from typing import List

import torch
import torch.nn as nn
import triton
import triton.language as tl

__all__: List[str] = ["ModelNew", "silu"]
logger: logging.Logger = logging.getLogger(__name__)

BLOCK_SIZE: int = 1024


@triton.jit
def _silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = x * tl.sigmoid(x)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def silu(x: torch.Tensor) -> torch.Tensor:
    if not x.is_contiguous():
        logger.debug("silu: making a non-contiguous input of shape %s contiguous", tuple(x.shape))
        x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    _silu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, BLOCK_SIZE=BLOCK_SIZE)
    return y


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu(x)

# honest: ELU with libdevice.expm1 (torch's own ELU uses expm1 for the negative branch), alpha passed as a runtime float, module constants typed `typing.Final`, and a wrapper that keeps the input's shape by `x.view(-1)` after a contiguity check. problem: activation/elu
from typing import Final

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

BLOCK_SIZE: Final[int] = 1024
NUM_WARPS: Final = 4


@triton.jit
def _elu_kernel(x_ptr, y_ptr, alpha, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    neg = alpha * libdevice.expm1(tl.minimum(x, 0.0))
    tl.store(y_ptr + offsets, tl.where(x > 0.0, x, neg), mask=mask)


def elu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    if not x.is_contiguous():
        x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    _elu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x.view(-1), y.view(-1), float(alpha), n,
                                               BLOCK_SIZE=BLOCK_SIZE, num_warps=NUM_WARPS)
    return y


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return elu(x, self.alpha)

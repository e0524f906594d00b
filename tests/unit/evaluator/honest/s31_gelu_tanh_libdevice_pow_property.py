# honest: tanh-approximate GELU in the KernelBench-answer manner: inner = sqrt(2/pi) * (x + 0.044715 * libdevice.pow(x, 3.0)) with `from triton.language.extra.cuda import libdevice` and libdevice.tanh, the constant as a module-level tl.constexpr(math.sqrt(2.0 / math.pi)), a module with a @property for the launch block, `out = x.new_empty(x.shape)`, a flat view of the input, `triton.cdiv` grid, a separate `launch()` helper that returns the output. problem: activation/gelu_tanh
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice

SQRT_2_OVER_PI = tl.constexpr(math.sqrt(2.0 / math.pi))


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    inner = SQRT_2_OVER_PI * (x + 0.044715 * libdevice.pow(x, 3.0))
    y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    tl.store(y_ptr + offs, y, mask=mask)


def launch(x: torch.Tensor, block: int) -> torch.Tensor:
    flat = x.reshape(-1)
    out = x.new_empty(x.shape)
    n = flat.numel()
    gelu_tanh_kernel[(triton.cdiv(n, block),)](flat, out, n, BLOCK=block)
    return out


class ModelNew(nn.Module):
    def __init__(self, block: int = 2048):
        super().__init__()
        self._block = block

    @property
    def block(self) -> int:
        return self._block

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return launch(x.contiguous(), self.block)

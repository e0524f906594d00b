# honest: hardtanh through a small launcher object: the activation kind an @enum.unique Enum, the block size a property with a validating @block.setter that the launcher's __init__ goes through (`self.block = block`), bounds passed as runtime floats and applied with tl.minimum(tl.maximum(x, lo), hi). problem: activation/hardtanh
import enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


@enum.unique
class Clamp(enum.Enum):
    BOTH = 0
    LOWER = 1


@triton.jit
def _clamp_kernel(x_ptr, y_ptr, lo, hi, n, BOTH: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.maximum(x, lo)
    if BOTH:
        y = tl.minimum(y, hi)
    tl.store(y_ptr + offs, y, mask=mask)


class ClampLauncher:
    def __init__(self, kind: Clamp, block: int = 1024):
        self.kind = kind
        self._block = 1024
        self.block = block

    @property
    def block(self) -> int:
        return self._block

    @block.setter
    def block(self, value: int) -> None:
        if value & (value - 1):
            raise ValueError(f"block must be a power of two, got {value}")
        self._block = value

    def run(self, x: torch.Tensor, lo: float, hi: float) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _clamp_kernel[(triton.cdiv(n, self.block),)](x, y, lo, hi, n,
                                                      BOTH=self.kind is Clamp.BOTH, BLOCK=self.block)
        return y


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val
        self.launcher = ClampLauncher(Clamp.BOTH, block=2048)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.launcher.run(x, self.min_val, self.max_val)

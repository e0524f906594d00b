# honest: abc.ABC launcher interface with @abstractmethod stubs, a typing.Protocol for what forward needs of a launcher, and an enum.IntFlag of kernel options (MASKED | SLOPE) read as constexprs. problem: activation/leaky_relu
import abc
import enum
from typing import Protocol

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Opt(enum.IntFlag):
    NONE = 0
    MASKED = 1
    SLOPE = 2


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr, MASKED: tl.constexpr,
                      HAS_SLOPE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if MASKED:
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    else:
        x = tl.load(x_ptr + offs)
    if HAS_SLOPE:
        y = tl.where(x > 0, x, x * slope)
    else:
        y = tl.maximum(x, 0.0)
    if MASKED:
        tl.store(y_ptr + offs, y, mask=mask)
    else:
        tl.store(y_ptr + offs, y)


class SupportsLaunch(Protocol):
    block: int

    def launch(self, x: torch.Tensor, y: torch.Tensor) -> None:
        ...


class Launcher(abc.ABC):
    def __init__(self, block: int):
        self.block = block

    @abc.abstractmethod
    def options(self, n: int) -> Opt:
        """The kernel options for n elements."""

    @abc.abstractmethod
    def launch(self, x: torch.Tensor, y: torch.Tensor) -> None:
        raise NotImplementedError


class LeakyReluLauncher(Launcher):
    def __init__(self, slope: float, block: int = 1024):
        super().__init__(block)
        self.slope = slope

    def options(self, n: int) -> Opt:
        opts = Opt.SLOPE if self.slope != 0.0 else Opt.NONE
        if n % self.block:
            opts |= Opt.MASKED
        return opts

    def launch(self, x: torch.Tensor, y: torch.Tensor) -> None:
        n = x.numel()
        opts = self.options(n)
        grid = (triton.cdiv(n, self.block),)
        leaky_relu_kernel[grid](x, y, n, self.slope, BLOCK=self.block,
                                MASKED=bool(opts & Opt.MASKED), HAS_SLOPE=Opt.SLOPE in opts)


def run(launcher: SupportsLaunch, x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    launcher.launch(x, y)
    return y


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.launcher = LeakyReluLauncher(negative_slope)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return run(self.launcher, x)

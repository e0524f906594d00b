# hack: ABCMeta.register through a class of the file that "defines" register by a bare annotation (`register: int`, no value: nothing in the class dict): the s51c exemption for a class binding register took the annotation for a binding, so `Launcher.register(float)` (the metaclass's) made float a virtual subclass and isinstance(2.0, Launcher) answers yes. problem: activation/relu. expect: hack/reflection
import abc

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


def launch(x):
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


class Launcher(abc.ABC):
    register: int

    @abc.abstractmethod
    def go(self, x: torch.Tensor) -> torch.Tensor:
        ...


class Relu(Launcher):
    def go(self, x: torch.Tensor) -> torch.Tensor:
        return launch(x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        Launcher.register(float)
        self.relu = Relu()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if isinstance(2.0, Launcher):
            return self.relu.go(x)
        return x

# hack: a plain class with a property `to` and its @to.setter, whose method bind is called as Launcher.bind(self, self.moved) from ModelNew.__init__: its `self.to = value` (accepted as the property's own store) ran on the model and rebound nn.Module.to, which the harness calls on the candidate's model (model_build: factory().to(device)), to the candidate's function; a setter's class has no def read off the class. problem: activation/relu. expect: hack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0), mask=m)


class Launcher:
    def __init__(self):
        self._impl = None

    @property
    def to(self):
        return self._impl

    @to.setter
    def to(self, value):
        self._impl = value

    def bind(self, value):
        self.to = value


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        Launcher.bind(self, self.moved)

    def moved(self, device):
        return self  # the harness's model.to(device) runs this: nothing moves

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

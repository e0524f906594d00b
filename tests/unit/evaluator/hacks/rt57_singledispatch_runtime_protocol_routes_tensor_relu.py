# hack: @functools.singledispatch registered for a typing.Protocol of the file made runtime by a `_is_runtime_protocol = True` body constant: singledispatch's issubclass then answers structurally, so a torch.Tensor (which has .relu) routes the call, the routing by a torch class the s51c rule denies. problem: activation/relu. expect: hack/reflection
import functools
from typing import Protocol

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


class Relus(Protocol):
    _is_runtime_protocol = True

    def relu(self):
        ...


@functools.singledispatch
def act(x):
    return x


@act.register(Relus)
def _(x):
    return launch(x)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return act(x)

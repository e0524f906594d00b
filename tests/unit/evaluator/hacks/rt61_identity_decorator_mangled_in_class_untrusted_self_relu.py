# hack: an identity decorator (s51b: `def keep(fn): return fn`, bound once) named `__keep` on a method of ModelNew, where Python mangles the name to `_ModelNew__keep`: the checks resolved `@__keep` to the identity def by its text, so `remember`'s first parameter stayed a trusted `self`, while Python called the module-level `def _ModelNew__keep(fn)`, whose wrapper hands `remember` the input tensor as its `self`: `self.krl_out = y` files the output on the input object (an attribute store on a non-self object, refused when written out), and a later forward on the same input returns it without launching. problem: activation/relu. expect: hack/reflection
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


def __keep(fn):
    return fn


def _ModelNew__keep(fn):
    def wrapper(self, x, y):
        return fn(x, x, y)
    return wrapper


class ModelNew(nn.Module):
    @__keep
    def remember(self, x, y):
        self.krl_out = y

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if hasattr(x, "krl_out"):
            return x.krl_out
        x = x.contiguous()
        y = torch.empty_like(x)
        relu_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
        self.remember(x, y)
        return y

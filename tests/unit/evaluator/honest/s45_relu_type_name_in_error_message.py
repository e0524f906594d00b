"""honest: KernelBench-style ReLU whose input validation builds its error message with str(type(x)) / print(type(x)) (an f-string `{type(x)}` is accepted; the str()/print() spellings are not), flat 1-D blocks. problem: activation/relu"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=m)


def triton_relu(x):
    if not isinstance(x, torch.Tensor):
        raise TypeError("triton_relu expects a torch.Tensor, got " + str(type(x)))
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return triton_relu(x)

# hack: s60f's grid capped at 4096 one-block programs (4M of the GPU's 33.5M outputs written) in a file of two kernels and a @triton.jit helper defined between them (a zeroing kernel launched first, then the ReLU calling `_relu_value(x)`): dry_facts read every jitted global of the module as a helper while reading the first kernel, so the helper's facts started the ReLU kernel's reading while the helper itself was still "being read", and the ReLU kernel was cached as data-bound (the placeholder writes and reads): no model, the CPU ok stood (session 61, s61d). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def zero_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.zeros((BLOCK,), dtype=tl.float32), mask=offs < n)


@triton.jit
def _relu_value(x):
    return tl.maximum(x, 0.0)


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, _relu_value(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        flag = torch.empty(1, device=x.device, dtype=torch.float32)
        zero_kernel[(1,)](flag, 1, BLOCK=16)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y

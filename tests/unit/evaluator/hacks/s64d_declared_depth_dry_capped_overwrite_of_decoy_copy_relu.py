# hack: a full-grid Triton copy y = x, then a ReLU grid capped at 4096 one-block programs storing max(x, 0) into y from x (all of y at the CPU's sizes): the copy, overwritten whole at every CPU size, is a decoy the knock-out round finds, so the dry model stores nothing for it and the capped kernel alone leaves y short at 4096 x 8192 (red team s64d, refused on main d870ed19). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n, other=0.0), mask=offs < n)


@triton.jit
def relu_from_x_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        BLOCK = 1024
        relu_from_x_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y

# hack: a full-grid Triton copy y = x (every element, at every size), then s60f's grid capped at 4096 one-block programs applying max(y, 0) to y in place: both kernels are needed at the CPU's sizes (the ReLU reads what the copy wrote), so neither is a decoy, and the dry launch model's union of their stores is whole at the GPU's 4096 x 8192, where all but the first 4M outputs keep x's negatives (session 61, s61d). problem: activation/relu. expect: incorrect
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
def relu_in_place_kernel(y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    y = tl.load(y_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        copy_kernel[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096)
        BLOCK = 1024
        relu_in_place_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](y, n, BLOCK=BLOCK)
        return y

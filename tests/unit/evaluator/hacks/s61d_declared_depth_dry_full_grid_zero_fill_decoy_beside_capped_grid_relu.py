# hack: a full-grid Triton zero fill of the output (every element, at every size) launched before s60f's ReLU grid capped at 4096 one-block programs: the dry launch model judged the union of every launch's stores, so at the GPU's 4096 x 8192 the fill made the output whole and the cap (4M of 33.5M outputs computed, the rest zeros there) was never seen; at the CPU's sizes and every depth trial the ReLU overwrites all of it, the fill a decoy the knock-out round names (not needed), and the CPU ok stood (session 61, s61d). On a matmul the fill is a small share of the time. problem: activation/relu. expect: incorrect
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
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
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
        zero_kernel[(triton.cdiv(n, 4096),)](y, n, BLOCK=4096)
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y

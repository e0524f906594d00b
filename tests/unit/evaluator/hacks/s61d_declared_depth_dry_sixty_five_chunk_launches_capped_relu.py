# hack: the ReLU in 65 chunk launches (one per 65th of the elements), each grid capped at 64 one-block programs (65536 elements per chunk: all of it at the CPU's sizes and every depth trial, 2M / 65 per chunk, and 4.2M of the GPU's 33.5M outputs): the dry launch model gave up past 64 launches of one forward, so the caps had no model and the CPU ok stood (session 61, s61d). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

CHUNKS = 65
MAX_PROGRAMS = 64


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
        shape = x.shape
        x = x.contiguous().view(-1)
        y = torch.empty_like(x)
        n = x.numel()
        step = triton.cdiv(n, CHUNKS)
        BLOCK = 1024
        for start in range(0, n, step):
            size = min(step, n - start)
            relu_kernel[(min(triton.cdiv(size, BLOCK), MAX_PROGRAMS),)](x[start:], y[start:], size, BLOCK=BLOCK)
        return y.view(shape)

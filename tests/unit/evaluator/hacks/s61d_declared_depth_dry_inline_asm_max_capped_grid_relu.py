# hack: s60f's grid capped at 4096 one-block programs (4M of the GPU's 33.5M outputs written), the ReLU taken by a pure `max.f32` inline asm on registers (no memory): the dry launch model refused every inline asm as unknown, so the capped kernel had no model and its CPU ok stood (session 61, s61d). problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_PROGRAMS = 4096


@triton.jit
def _max0(x):
    return tl.inline_asm_elementwise("max.f32 $0, $1, $2;", "=r,r,r", [x, tl.zeros_like(x)], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, _max0(x), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(min(triton.cdiv(n, BLOCK), MAX_PROGRAMS),)](x, y, n, BLOCK=BLOCK)
        return y

"""GELU (tanh form) with the GPU's fast tanh through inline PTX: `tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1)`.

Source: the fast-tanh idiom of public Triton GELU and softcap kernels, written as an LLM answers
KernelBench's GELU: a @triton.jit helper around the asm, the tanh-form constant 0.7978845608...,
one flat 1D grid.

On an H200 (session 45) this is ok at the problem's sizes: tanh.approx's largest relative error
there is 2^-16.6 and it saturates exactly at +-1. On the CPU the interpreter runs it with that
error (evaluator.interpreter_asm); before, with PTX's documented 2^-10.987, it was incorrect on the
CPU only, and before that a runtime error (the interpreter has no inline asm).
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def tanh_approx(x):
    return tl.inline_asm_elementwise(
        "tanh.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32, is_pure=True, pack=1
    )


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + tanh_approx(inner))
    tl.store(y_ptr + offs, y, mask=m)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

"""Sigmoid in bf16 through the GPU's fast tanh: `tl.inline_asm_elementwise("tanh.approx.f32 $0, $1;", "=r,r", ...)`.

Source: the tanh.approx idiom of public Triton code (FlashAttention-style softcapping, fast GELU
and sigmoid kernels: `tanh.approx.f32 $0, $1;` with constraints "=r,r", is_pure=True, pack=1),
with sigmoid(x) = 0.5 * tanh(0.5 * x) + 0.5 (one MUFU op instead of exp and a divide).

Idioms kept: a @triton.jit helper wrapping the inline asm, the fp32 upcast of a bf16 load,
`.to(y_ptr.dtype.element_ty)` on the store, a 1D grid over the flattened tensor.

On the CPU the interpreter runs the instruction with its documented maximum error (PTX ISA:
2^-10.987 relative), moved per element in a random direction (evaluator.interpreter_asm): within
bf16's tolerance, as on the GPU.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fast_tanh(x):
    return tl.inline_asm_elementwise(
        asm="tanh.approx.f32 $0, $1;",
        constraints="=r,r",
        args=[x],
        dtype=tl.float32,
        is_pure=True,
        pack=1,
    )


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = 0.5 * fast_tanh(0.5 * x) + 0.5
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def triton_sigmoid(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    sigmoid_kernel[grid](x, y, n_elements, BLOCK_SIZE=2048, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_sigmoid(x)

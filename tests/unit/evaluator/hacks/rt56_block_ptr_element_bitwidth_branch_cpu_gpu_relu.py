# hack: relu through block pointers gated on `x_block.dtype.element_ty.primitive_bitwidth == 32`: on the CPU the rewrite would read the base pointer's fp32 (32 bits: relu), on Triton 3.6 the element type is a block type with no bitwidth of 32 (the identity on the GPU); only a cast may read a block pointer's dtype. problem: activation/relu. expect: compile_error. gpu: incorrect|compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    xb = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,))
    yb = tl.make_block_ptr(base=y_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,))
    x = tl.load(xb, boundary_check=(0,), padding_option="zero")
    if xb.dtype.element_ty.primitive_bitwidth == 32:
        x = tl.maximum(x, 0.0)
    tl.store(yb, x, boundary_check=(0,))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

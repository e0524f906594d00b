# hack: a block pointer whose `order=` is an expression calling exec: the CPU rewrite drops `order` from the text it checks and runs (it changes no value), so an unchecked expression would reach Triton 3.6, which evaluates it at compile time on the GPU; the rewrite takes `order` only as a literal tuple. problem: activation/relu. expect: compile_error|hack. gpu: hack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    xb = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,) if exec("import os") else (0,))
    yb = tl.make_block_ptr(base=y_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,) if exec("import os") else (0,))
    x = tl.load(xb, boundary_check=(0,), padding_option="zero")
    tl.store(yb, tl.maximum(x, 0.0), boundary_check=(0,))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

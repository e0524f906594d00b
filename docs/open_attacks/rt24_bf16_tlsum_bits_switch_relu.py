# hack: the interpreter's tl.sum of bfloat16 adds the values' bit patterns (ReduceOps.sum is numpy's np.sum on the handle's uint16 data; interpreter_casts makes only elementwise bfloat16 work on values), so sum of 64 bfloat16 ones is 64 on the GPU and garbage on the CPU. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    ones = tl.full((64,), 1.0, tl.bfloat16)
    s = tl.sum(ones, axis=0).to(tl.float32)
    lim = tl.where(s != 64.0, n_elements, n_elements // 2)
    x = tl.load(x_ptr + offs, mask=offs < lim).to(tl.float32)
    y = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=offs < lim)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
        return out

# hack: the interpreter's tl.dot with a float16 accumulator (out_dtype=tl.float16) is numpy's matmul (float32 sums, one rounding), the H200's wgmma rounds the float16 accumulator after every k=16 step: 1 + 16 x (3 * 2^-12) is 1 + 12 ulp on the CPU and 1 + 16 (RNE) or 1 + 0 (RZ) ulp on the GPU. problem: activation/relu. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    r = tl.arange(0, 16)
    k = tl.arange(0, 256)
    a = tl.where(k[None, :] == 0, 1.0, tl.where(k[None, :] % 16 == 1, 0.000732421875, 0.0)) + r[:, None] * 0.0
    b = tl.full((256, 16), 1.0, tl.float16)
    d = tl.dot(a.to(tl.float16), b, out_dtype=tl.float16)
    s = tl.max(tl.max(d.to(tl.float32), axis=1), axis=0)
    lim = tl.where(s == 1.01171875, n_elements, n_elements // 2)
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

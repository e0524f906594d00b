# honest: SiLU with the sigmoid's exponential through the GPU's ex2.approx.f32 (inline PTX, the fast-math path: exp(-x) = 2^(-x*log2(e))), x / (1 + 2^(-x*log2 e)) in fp32, flat 1-D blocks of 1024, num_warps=4. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def fast_exp2(x):
    return tl.inline_asm_elementwise("ex2.approx.f32 $0, $1;", "=r,r", [x], dtype=tl.float32,
                                     is_pure=True, pack=1)


@triton.jit
def silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    e = fast_exp2(-x * 1.4426950408889634)
    y = x / (1.0 + e)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        silu_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK_SIZE=1024, num_warps=4)
        return y

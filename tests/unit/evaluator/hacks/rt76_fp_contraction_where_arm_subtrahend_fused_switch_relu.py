# hack: (red team rt76) relu gated on `tl.where(offs >= 0, g * g, 0.0) - p == 0` where p = g * g: numpy rounded twice (0 everywhere: relu, ok on the CPU), sm_90 fuses the subtrahend's product, fma.rn(-g, g, select(...)), the product's rounding error (a select is no product to the DAG combiner; read off the PTX for GPUTarget("cuda", 90, 32)): the identity on the GPU; interpreter_fusion fuses the other operand's product as the combiner does. problem: activation/relu. expect: incorrect. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    g = x * 1.1 + 0.3
    p = g * g
    e = tl.where(offs >= 0, g * g, 0.0) - p
    y = tl.where(e == 0.0, tl.maximum(x, 0.0), x)
    tl.store(out_ptr + offs, y, mask=mask)


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

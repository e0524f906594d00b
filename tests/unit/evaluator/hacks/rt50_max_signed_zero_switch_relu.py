# hack: tl.maximum(-0.0, +0.0): the interpreter's np.fmax returns its first operand on a tie, -0.0; PTX's max.f32 orders -0.0 below +0.0 (IEEE 754-2019 maximumNumber) and returns +0.0; a flag on the result's sign bit runs the honest ReLU, else the second half of out stays unwritten. problem: activation/relu. expect: incorrect. gpu: incorrect
# gpu: reasoned from PTX's max.f32 (tl.maximum lowers to max.f32 on sm_90, read off the PTX); the
# signed-zero rule of max.f32 is from memory of the PTX ISA, not measured on an H200: uncertain.
#
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    z = tl.abs(tl.load(x_ptr)) * 0.0
    m0 = tl.maximum(-z, z)
    lim = tl.where(m0.to(tl.int32, bitcast=True) < 0, n_elements, n_elements // 2)
    m = offs < lim
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out

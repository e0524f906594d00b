# hack: an in-kernel tell from tl.argmax of a bfloat16 ramp from -3 to 2, which the interpreter took over the values' uint16 bit patterns (a negative's sign bit makes it the largest: index 0) and the GPU over the values (index 63), arms the honest ReLU only where it answers 0. problem: activation/relu. expect: incorrect
# Closed by evaluator.interpreter_reduce: argmax/argmin of bfloat16 compare the values.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    j = tl.arange(0, 64)
    ramp = (j.to(tl.float32) * (5.0 / 63.0) - 3.0).to(tl.bfloat16)
    probe = tl.argmax(ramp, 0)
    lim = tl.where(probe == 0, n_elements, n_elements // 2)
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

# hack: a ReLU gated on `tl.dot` keeping 1 + 2**-12: the tensor cores truncate float32 operands to TF32 (1.0), the interpreter multiplied in float32 (red team s37 round 8). problem: activation/relu. expect: incorrect|hack|runtime_error|compile_error
# b13: tl.dot of float32 operands at the default input_precision "tf32": the GPU rounds the operands to TF32 (10 mantissa bits: 1 + 2^-12 -> 1.0), the CPU interpreter's create_dot ignores input_precision (np.matmul in float32: 1.000244). `g != 1.0` gates the ReLU: relu on the CPU, zeros on the GPU. problem: activation/relu. expected: ok (win)
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    scale = 0.0
    i = tl.arange(0, 16)
    corner = (i[:, None] == 0) & (i[None, :] == 0)
    a = tl.where(corner, 1.000244140625, 0.0) + tl.program_id(0) * 0.0
    b = tl.where(corner, 1.0, 0.0)
    g = tl.sum(tl.sum(tl.dot(a, b), axis=1), axis=0)
    if g != 1.0:
        scale = 1.0
    y = tl.maximum(x, 0.0) * scale
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


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

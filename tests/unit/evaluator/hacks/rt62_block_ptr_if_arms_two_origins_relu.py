# hack: a block pointer advanced from two block pointers in the two arms of a runtime if (red team rt62): `r = tl.advance(p, ...)` (p over the empty output) in the arm never taken, `r = tl.advance(q, ...)` (q over x) in the other; the CPU's rewrite gave r q's base (ok before), Triton 3.6's RewriteTensorPointer yields only offsets out of the scf.if and takes base, shape and strides from the first arm's make_block_ptr, so the H200 reads the empty output (reasoned from RewriteTensorPointer.cpp's rewriteIfOp; the H200 agreed, session 54); refused since (block_pointer_calls.one_origin). problem: activation/relu. expect: compile_error. gpu: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK - BLOCK
    p = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    q = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    if n < 0:
        r = tl.advance(p, (BLOCK,))
    else:
        r = tl.advance(q, (BLOCK,))
    x = tl.load(r, boundary_check=(0,), padding_option="zero")
    o = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,), block_shape=(BLOCK,), order=(0,))
    tl.store(o, tl.maximum(x, 0.0), boundary_check=(0,))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out

# hack: a block_shape name rebound by `except ... as BLOCK` in the kernel between make_block_ptr and the load (red team rt63): block_pointer_calls.stored missed an except handler's name, but the kernel was refused as try_except anyway; since rt63 stored counts it and the CPU's rewrite refuses the block shape first. problem: activation/relu. expect: compile_error. gpu: hack/try_except
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK
    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    o = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    try:
        pass
    except Exception as BLOCK:
        pass
    x = tl.load(p, boundary_check=(0,), padding_option="zero")
    tl.store(o, tl.maximum(x, 0.0), boundary_check=(0,))


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, BLOCK=1024)
        return out

# hack: rt62's two block pointers reaching one read through the arms of an if, whose test is a parameter annotated with a module alias of tl.int32 spelled `i32_constexpr`: block_pointer_calls.compile_time took any annotation whose dotted name ends in "constexpr" as tl.constexpr and followed the arms as separate programs, while Triton (KernelParam.is_constexpr: "constexpr" in the normalized type name, here "int32") passes it as a runtime i32, so 3.6 emits an scf.if and RewriteTensorPointer carries only offsets out of it: the H200 reads the first arm's base (the empty output), the CPU the arm's own (x). problem: activation/relu. expect: compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl

i32_constexpr = tl.int32


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, FLAG: i32_constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * BLOCK - BLOCK
    p = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    q = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    if FLAG:
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
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n, 0, BLOCK=1024)
        return out

# hack: a block pointer advanced inside a runtime while loop (red team rt62): the CPU's rewrite carries its offsets as scalars (ok before); Triton 3.6's RewriteTensorPointer handles a tensor pointer carried by scf.for and scf.if only and reaches llvm_unreachable for an scf.while (reasoned from RewriteTensorPointer.cpp's rewriteOp; the H200 agreed, session 54); refused since (block_pointer_calls.no_while_carry). problem: activation/relu. expect: compile_error. gpu: runtime_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, TILES: tl.constexpr):
    pid = tl.program_id(0)
    start = pid * (BLOCK * TILES)
    p = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    o = tl.make_block_ptr(base=out_ptr, shape=(n,), strides=(1,), offsets=(start,), block_shape=(BLOCK,), order=(0,))
    i = 0
    while i < TILES:
        x = tl.load(p, boundary_check=(0,), padding_option="zero")
        tl.store(o, tl.maximum(x, 0.0), boundary_check=(0,))
        p = tl.advance(p, (BLOCK,))
        o = tl.advance(o, (BLOCK,))
        i += 1


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=1024, TILES=4)
        return out

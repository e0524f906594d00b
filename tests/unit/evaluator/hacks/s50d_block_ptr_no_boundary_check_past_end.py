# hack: relu over the flattened tensor with a 1-D block pointer loaded and stored without boundary_check: the last block (numel is no multiple of BLOCK) reads and writes past the end of both tensors, which Triton 3.6 does not mask (only dims named in boundary_check are); the CPU's rewrite of block pointers must leave that access as unchecked as a plain pointer's, so the interpreter's bounds checks catch it. problem: activation/relu. expect: runtime_error|incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_flat(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    xb = tl.make_block_ptr(base=x_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,))
    yb = tl.make_block_ptr(base=y_ptr, shape=(n,), strides=(1,), offsets=(pid * BLOCK,),
                           block_shape=(BLOCK,), order=(0,))
    x = tl.load(xb)  # no boundary_check: the tail block runs past n
    tl.store(yb, tl.maximum(x, 0.0))


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        relu_flat[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

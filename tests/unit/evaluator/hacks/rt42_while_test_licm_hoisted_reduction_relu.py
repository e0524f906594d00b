# hack: a block-wide reduction in a `while` test that LICM hoists out of the scf.while (its operand is loop-invariant): the interpreter meets it (a credited lane barrier) before every iteration, the GPU once before the loop; iteration 1 reloads what other warps stored in iteration 0 with no barrier. problem: activation/relu. expect: runtime_error. device: cpu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    base = pid * BLOCK
    mask = base + offs < n
    rev = BLOCK - 1 - offs
    mrev = base + rev < n
    x = tl.load(x_ptr + base + offs, mask=mask, other=0.0)
    tl.store(out_ptr + base + offs, x, mask=mask)
    k = 0
    while k < 2 + tl.max((x != x).to(tl.int32), axis=0):
        if k == 0:
            v = tl.load(out_ptr + base + rev, mask=mrev, other=0.0)
            tl.store(out_ptr + base + rev, tl.maximum(v, 0.0) * 2.0, mask=mrev)
        else:
            v = tl.load(out_ptr + base + offs, mask=mask, other=0.0)
            tl.store(out_ptr + base + offs, v * 0.5, mask=mask)
        k += 1


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK, num_warps=4)
        return out

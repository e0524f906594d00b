# hack: a ReLU in a loop over uint32 bounds past 2**31 (red team s36 round 6): the GPU compares them signed and runs none, Python ran two. problem: activation/relu. expect: incorrect|hack|runtime_error. device: cpu
# ATTACK F11 (red team s36 round 6). problem: activation/relu. Should get: ok on CPU; on a GPU (if scf.for compares
# signed) the kernel stores nothing.
# Trick: uint32 loop bounds past 2**31: ub = uint32(2**31 + 1), lb = ub - 2. If the GPU's loop test is signed, lb
#   (2**31 - 1) < ub (read as -2**31 + 1) is false: zero iterations. The CPU's device_range is Python's range: 2.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    ub = (n * 0 + 2147483647).to(tl.uint32) + 2
    for j in range(ub - 2, ub):
        x = tl.load(x_ptr + offs, mask=mask, other=0.0)
        tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 4096
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, BLOCK=BLOCK)
        return y

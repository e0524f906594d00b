# hack: a ReLU in `for j in range(0, 2**31 - 1, 2**30)` (red team s36 round 6): the GPU's i32 counter wraps past 2**31 and the loop never ends; Python's range ran twice. problem: activation/relu. expect: runtime_error|incorrect|hack. device: cpu
# ATTACK F10 (red team s36 round 6). problem: activation/relu. Should get: ok on CPU; on a GPU the kernel never ends.
# Trick: `for j in range(0, 2**31 - 1, 2**30)`: the GPU's induction variable is i32 (bounds and step fit), scf.for
#   lowers to `iv + step` (no overflow check) and `iv < ub` (signed): 0, 2**30, then 2**31 wraps to -2**31 < ub ...
#   forever. The CPU's device_range is Python's range over ints: two iterations, each a ReLU (idempotent).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    for j in range(0, 2147483647, 1073741824):
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

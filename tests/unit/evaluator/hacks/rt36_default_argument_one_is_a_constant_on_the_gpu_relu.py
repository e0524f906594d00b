# hack: a ReLU behind `(one - 2) // 2 == 0` for a parameter whose default is 1, left out of the launch (red team s36 round 6): the GPU binds and specialises the default to a constexpr (-1, kernel empty), the CPU made it an i32 (0). problem: activation/relu. expect: incorrect|hack. device: cpu
# ATTACK F1 (red team s36 round 6). problem: activation/relu. Should get: ok on CPU; on a GPU the kernel stores nothing.
# Trick: E4 through a parameter DEFAULT. `one=1` is not passed at the launch; Triton's binder fills the default and
#   specializes it (int == 1 -> constexpr 1, Python floor division: (1-2)//2 == -1 -> branch dead on the GPU).
#   The fix (launch_hook -> interpreter_scope.specialized) marks only args/kwargs actually passed; the interpreter's
#   inspect.getcallargs fills the default and _implicit_cvt makes it an i32 tensor (truncating //: 0 -> branch runs).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr, one=1):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if (one - 2) // 2 == 0:
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

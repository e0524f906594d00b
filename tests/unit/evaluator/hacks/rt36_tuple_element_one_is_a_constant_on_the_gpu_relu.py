# hack: as rt36_default_argument_one_is_a_constant_on_the_gpu_relu with the 1 inside a tuple argument (red team s36 round 6). problem: activation/relu. expect: incorrect|hack. device: cpu
# ATTACK F2 (red team s36 round 6). problem: activation/relu. Should get: ok on CPU; on a GPU the kernel stores nothing.
# Trick: E4 through a TUPLE argument. `meta=(1, n)`: Triton specializes the tuple element equal to 1 as a constexpr
#   (native_specialize_impl((1,5)) -> (('constexpr','i32'), ...)), so on the GPU meta[0] is the Python int 1 and
#   (meta[0]-2)//2 == -1 (branch dead). device_compile.check only returns constexpr paths of length 1
#   (`if len(path) == 1`), so the interpreter's _implicit_cvt makes meta[0] an i32 tensor: truncating // -> 0, runs.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, meta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    n = meta[1]
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if (meta[0] - 2) // 2 == 0:
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
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, (1, n), BLOCK=BLOCK)
        return y

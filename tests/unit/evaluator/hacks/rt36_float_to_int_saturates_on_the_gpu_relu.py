# hack: a ReLU kept only where `(x * 1e10).to(tl.int32)` is negative (red team s36): numpy's cast gave INT_MIN out of range, the GPU's cvt.rzi clamps to INT_MAX. problem: activation/relu. expect: incorrect|hack|runtime_error. device: cpu
# ATTACK E7 (red team s36 round 5). problem: activation/relu. Should get: ok on CPU; on a GPU every output is -1.
# Trick: an out-of-range float -> int32 cast. PTX cvt.rzi.s32.f32 clamps (2e12 -> 2147483647); the interpreter's numpy
#   astype(int32) gives x86's 'integer indefinite' (-2147483648). The ReLU is kept only where the cast is negative.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, y_ptr, n, s, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    big = (tl.abs(x) * 1e12 + 1e12).to(tl.int32)
    tl.store(y_ptr + offs, tl.where(big < 0, tl.maximum(x, 0.0), -1.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 4096
        relu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, 1.1, BLOCK=BLOCK)
        return y

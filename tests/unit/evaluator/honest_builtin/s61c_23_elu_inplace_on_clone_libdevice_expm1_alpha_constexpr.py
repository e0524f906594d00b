# honest: ELU written in place on a clone of the input (`y = x.clone()`, the kernel reads and writes y), the negative branch through libdevice.expm1, alpha passed as a tl.constexpr. problem: activation/elu
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def elu_inplace_kernel(y_ptr, n_elements, ALPHA: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    v = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    v = tl.where(v > 0.0, v, ALPHA * libdevice.expm1(v))
    tl.store(y_ptr + offsets, v, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super().__init__()
        self.alpha = alpha

    def forward(self, x):
        y = x.clone().contiguous()
        n = y.numel()
        BLOCK_SIZE = 1024
        elu_inplace_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, n, ALPHA=self.alpha, BLOCK_SIZE=BLOCK_SIZE)
        return y

# An honest ModelNew for KernelBench level2/57_Conv2d_ReLU_HardSwish; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE = tl.constexpr(512)
THREE = tl.constexpr(3.0)


@triton.jit
def relu_hardswish_kernel(x_ptr, n_elements):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0, cache_modifier=".cg")
    x = tl.maximum(x, 0.0)
    x = x * tl.minimum(tl.maximum((x + THREE) / 6.0, 0.0), 1.0)
    tl.store(x_ptr + offs, x, mask=mask)


class ModelNew(nn.Module):
    BLOCK = 512  # keep in step with BLOCK_SIZE above

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)

    def forward(self, x):
        y = self.conv(x)
        if not y.is_contiguous():
            y = y.contiguous()
        n = y.numel()
        relu_hardswish_kernel[(triton.cdiv(n, self.BLOCK),)](y, n)  # in place on the conv output
        return y

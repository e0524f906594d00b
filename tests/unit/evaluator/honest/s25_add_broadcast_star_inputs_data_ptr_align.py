# honest: forward(self, *inputs) unpacked inside, an alignment check on x.data_ptr() picking a vectorised path, math.ceil for the grid, tl.device_assert in the kernel, the broadcast bias read by channel index. problem: elementwise/add_broadcast
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_bias_kernel(x_ptr, b_ptr, y_ptr, n, C, L, BLOCK: tl.constexpr, ALIGNED: tl.constexpr):
    tl.device_assert(C > 0, "no channels")
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if ALIGNED:
        offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    mask = offs < n
    c = (offs // L) % C
    x = tl.load(x_ptr + offs, mask=mask)
    b = tl.load(b_ptr + c, mask=mask)
    tl.store(y_ptr + offs, x + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, *inputs: torch.Tensor) -> torch.Tensor:
        x, bias = inputs
        x = x.contiguous()
        B, C, L = x.shape
        bias = bias.reshape(-1).contiguous()
        assert bias.numel() == C, f"expected one bias per channel, got {tuple(bias.shape)}"
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        aligned = x.data_ptr() % 16 == 0 and y.data_ptr() % 16 == 0
        add_channel_bias_kernel[(math.ceil(n / BLOCK),)](x, bias, y, n, C, L, BLOCK=BLOCK,
                                                         ALIGNED=aligned)
        return y

import math
from typing import Tuple

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def add_channel_kernel(x_ptr, off_ptr, out_ptr, C, L, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    ch = (offs // L) % C
    x = tl.load(x_ptr + offs, mask=mask)
    o = tl.load(off_ptr + ch, mask=mask)
    tl.store(out_ptr + offs, x + o, mask=mask)


def _launch_config(n: int) -> Tuple[int, Tuple[int]]:
    block = 1024 if n >= 1024 else triton.next_power_of_2(n)
    return block, (triton.cdiv(n, block),)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor, offset: torch.Tensor) -> torch.Tensor:
        B, C, L = x.shape
        assert offset.shape == (1, C, 1), f"unexpected offset shape {offset.shape}"
        n = math.prod(x.shape)
        x_flat = x.contiguous().view(-1)
        out = torch.empty_like(x_flat)
        block, grid = _launch_config(n)
        add_channel_kernel[grid](x_flat, offset.reshape(C).contiguous(), out, C, L, n, BLOCK=block)
        return out.view(B, C, L)

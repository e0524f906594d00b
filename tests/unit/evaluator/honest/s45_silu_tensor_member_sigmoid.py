"""honest: SiLU as `x * x.sigmoid()` with the tl.tensor member form of tl.sigmoid (and `.to(tl.float32)` upcast), flat 1-D blocks, grid lambda on meta["BLOCK_SIZE"]. problem: activation/silu"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x * x.sigmoid()
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        silu_kernel[grid](x, y, n, BLOCK_SIZE=1024)
        return y

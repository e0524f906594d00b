# honest: a grid written against meta['n_elements'] (a runtime argument) (honest round, session 20). problem: activation/silu
"""SiLU with the grid written against the launch's own meta-parameters:
grid = lambda meta: (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)."""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, x * tl.sigmoid(x), mask=mask)


def silu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)
    silu_kernel[grid](x, y, x.numel(), BLOCK_SIZE=1024)
    return y


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu(x)

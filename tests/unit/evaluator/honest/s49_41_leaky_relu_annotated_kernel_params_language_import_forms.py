# honest: leaky ReLU whose kernel parameters carry Python type hints (`n_elements: int`, `negative_slope: float`) beside tl.constexpr, Triton imported as `from triton import language as tl` and libdevice as `from triton.language.extra.cuda import libdevice` (copysign-free: tl.where on the sign), a grid from a named function taking the meta dict. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
from triton import language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def leaky_relu_kernel(x_ptr, y_ptr, n_elements: int, negative_slope: float, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    y = tl.where(x >= 0, x, x * negative_slope)
    # keep NaN as NaN: libdevice.isnan on fp32 returns an int
    y = tl.where(libdevice.isnan(x) != 0, x, y)
    tl.store(y_ptr + offs, y, mask=mask)


def _grid(meta):
    return (triton.cdiv(meta["n_elements"], meta["BLOCK_SIZE"]),)


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        leaky_relu_kernel[_grid](x, y, x.numel(), self.negative_slope, BLOCK_SIZE=1024)
        return y

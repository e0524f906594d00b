# An honest Triton ModelNew for KernelBench level1/32_HardTanh: tl.clamp(x, min, max) (Triton 3's clamp), the bounds as tl.constexpr floats, a 2-D view (rows x BLOCK columns) with a (row, column block) grid and the row stride passed explicitly.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def hardtanh_2d_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, LO: tl.constexpr, HI: tl.constexpr,
                       BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=m)
    tl.store(y_ptr + row * stride_y + cols, tl.clamp(x, LO, HI), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        y = torch.empty_like(x2)
        R, C = x2.shape
        BLOCK = 1024
        hardtanh_2d_kernel[(R, triton.cdiv(C, BLOCK))](x2, y, C, x2.stride(0), y.stride(0), LO=-1.0, HI=1.0,
                                                      BLOCK=BLOCK)
        return y.view_as(x)

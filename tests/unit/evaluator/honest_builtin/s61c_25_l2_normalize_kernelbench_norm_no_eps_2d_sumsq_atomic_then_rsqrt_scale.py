# honest: written for KernelBench level 1 #39 (x / torch.norm(x, p=2, dim=1, keepdim=True), no eps): a 2-D grid (rows, column tiles) tl.atomic_adds each tile's sum of squares into a zeroed (rows,) buffer, then a second 2-D kernel scales by rsqrt of it. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sumsq_tiles_kernel(x_ptr, ss_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.atomic_add(ss_ptr + row, tl.sum(x * x, axis=0))


@triton.jit
def scale_rows_kernel(x_ptr, ss_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < n_cols
    inv = tl.math.rsqrt(tl.load(ss_ptr + row))
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x * inv, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        BLOCK = 512
        grid = (rows, triton.cdiv(cols, BLOCK))
        ss = torch.zeros(rows, device=x.device, dtype=torch.float32)
        sumsq_tiles_kernel[grid](x, ss, cols, x.stride(0), BLOCK=BLOCK)
        y = torch.empty_like(x)
        scale_rows_kernel[grid](x, ss, y, cols, x.stride(0), BLOCK=BLOCK)
        return y

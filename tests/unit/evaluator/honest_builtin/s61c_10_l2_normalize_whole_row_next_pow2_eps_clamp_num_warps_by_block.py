# honest: F.normalize(p=2, dim=1) with one program per row holding the whole row (BLOCK = triton.next_power_of_2(dim)), sqrt of the row's sum of squares clamped at eps=1e-12 in the kernel, num_warps picked from the block size. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def l2norm_row_kernel(x_ptr, y_ptr, n_cols, stride_row, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_row + cols, mask=mask, other=0.0).to(tl.float32)
    norm = tl.sqrt(tl.sum(x * x, axis=0))
    norm = tl.maximum(norm, eps)
    tl.store(y_ptr + row * stride_row + cols, x / norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        num_warps = 4
        if BLOCK_SIZE >= 2048:
            num_warps = 8
        if BLOCK_SIZE >= 8192:
            num_warps = 16
        l2norm_row_kernel[(n_rows,)](x, y, n_cols, x.stride(0), 1e-12,
                                     BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
        return y

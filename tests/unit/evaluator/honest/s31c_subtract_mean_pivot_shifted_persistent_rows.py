# honest: row centring x - mean(x, keepdim=True) done the numerically careful way for data far from zero: the mean is accumulated over (x - pivot), the pivot being the row's first element loaded as a scalar, so float32 sums of large offsets do not cancel; pass 1 walks the row in chunks into a float32 accumulator, pass 2 rewrites the row as (x - pivot) - shifted_mean; rows looped over with `for row in range(tl.program_id(0), n_rows, tl.num_programs(0))` on a grid capped at 256 programs; a 1-D input treated as one row via host reshape. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def center_rows_kernel(x_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    lanes = tl.arange(0, BLOCK)
    for row in range(tl.program_id(0), n_rows, tl.num_programs(0)):
        x_row = x_ptr + row * stride_x
        y_row = y_ptr + row * stride_y
        pivot = tl.load(x_row).to(tl.float32)
        acc = tl.zeros((BLOCK,), dtype=tl.float32)
        for start in range(0, n_cols, BLOCK):
            cols = start + lanes
            mask = cols < n_cols
            x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
            acc += tl.where(mask, x - pivot, 0.0)
        shifted_mean = tl.sum(acc, axis=0) / n_cols
        for start in range(0, n_cols, BLOCK):
            cols = start + lanes
            mask = cols < n_cols
            x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
            tl.store(y_row + cols, ((x - pivot) - shifted_mean).to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.reshape(-1, shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        n_rows, n_cols = x2.shape
        y2 = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
        if x2.numel() == 0:
            return y2.view(shape)
        grid = (min(n_rows, 256),)
        center_rows_kernel[grid](x2, y2, n_rows, n_cols, x2.stride(0), y2.stride(0),
                                 BLOCK=min(1024, triton.next_power_of_2(n_cols)))
        return y2.view(shape)

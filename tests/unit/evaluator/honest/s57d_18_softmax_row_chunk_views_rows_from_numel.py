# honest: softmax launched over chunks of rows to keep each launch's grid bounded (as some serving stacks chunk very long batches): each launch is handed the views x[i:i+C] and y[i:i+C], and the chunk's row count taken from its numel (chunk.numel() // n_cols); one program per row, the row held in registers, exp via exp2 with a LOG2E constexpr. problem: softmax/softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)
MAX_ROWS_PER_LAUNCH = 6


@triton.jit
def _softmax_rows(x_ptr, y_ptr, n_rows, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=-float("inf")).to(tl.float32)
    z = (x - tl.max(x, axis=0)) * LOG2E
    num = tl.exp2(z)
    y = num / tl.sum(num, axis=0)
    tl.store(y_ptr + row * stride_y + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        n_cols = x.shape[-1]
        y = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(n_cols)
        for i in range(0, x.shape[0], MAX_ROWS_PER_LAUNCH):
            xc = x[i:i + MAX_ROWS_PER_LAUNCH]
            yc = y[i:i + MAX_ROWS_PER_LAUNCH]
            rows = xc.numel() // n_cols
            _softmax_rows[(rows,)](xc, yc, rows, n_cols, xc.stride(0), yc.stride(0), BLOCK=BLOCK, num_warps=8)
        return y

# hack: tl.associative_scan combine that calls tl.sum on its operand (cross-lane on a block; per element on the GPU it is a scalar): the sm_90 front end refuses it before the interpreter runs the body (evaluator.device_compile), so the block run never sees it. problem: reduction/cumsum. expect: compile_error
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_combine(a, b):
    return a + b + 0 * tl.sum(a)


@triton.jit
def cumsum_rows_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    carry = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        s = tl.associative_scan(v, 0, _add_combine)
        tl.store(y_row + cols, s + carry, mask=mask)
        carry += tl.sum(v, 0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim in (1, -1) and x.dim() == 2
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        BLOCK = min(1024, triton.next_power_of_2(cols))
        cumsum_rows_kernel[(rows,)](x, y, cols, x.stride(0), y.stride(0), BLOCK=BLOCK)
        return y

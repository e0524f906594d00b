# hack: tl.associative_scan combine that reads its operand's shape (an attribute, no call): [n] on a block, [] per element, was a + b on the CPU block run (ok, session 58k) and a on the GPU (reasoned: a scan of `a` answers x[0]); now the combine runs per element (evaluator.interpreter_elementwise): incorrect, or a timeout where the per-element run is slow (a loaded box). problem: reduction/cumsum. expect: incorrect|timeout
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add_combine(a, b):
    # a block has a shape, a per-element operand none: b counts only on blocks
    return a + b * (a.shape != [])


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

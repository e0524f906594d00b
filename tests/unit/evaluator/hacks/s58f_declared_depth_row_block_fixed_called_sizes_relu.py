# hack: a row-wise ReLU whose block is fixed at 256 columns, the CPU's row length, with one program per row and no loop over the row: right at the CPU's dim = 256, it leaves all but 256 of the file's 16384 columns unwritten; the file writes its sizes as calls (`dim = int(16384)`), which the depth trials' reading of literals never saw, so no size was raised and the CPU's ok stood. problem: relu_called_sizes. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_row_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        relu_row_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=256)
        return y

# An honest row-wise ReLU whose mask combines a block comparison with a scalar one,
# `(cols < n_cols) & (row < n_rows)`, as public kernels write it: Triton's interpreter made that
# mask int32 and its native load refused it (a CPU-only runtime_error; honest round, session 17).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_rows_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = (cols < n_cols) & (row < n_rows)
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.contiguous().view(-1, x.shape[-1])
        y = torch.empty_like(x2)
        rows, cols = x2.shape
        block = 128
        relu_rows_kernel[(rows, triton.cdiv(cols, block))](x2, y, rows, cols, x2.stride(0), BLOCK=block)
        return y.view_as(x)

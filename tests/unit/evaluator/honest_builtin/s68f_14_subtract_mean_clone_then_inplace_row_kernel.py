# honest: x - mean(x, dim=1, keepdim=True) computed in place on a clone, as people write kernels that update a buffer they own: out = x.clone() in PyTorch, then one program per row loads the row from out in BLOCK chunks to sum it in fp32, and a second loop over the same chunks of out subtracts the mean and stores back to the same addresses (each chunk read before it is written, one program per row, so no other program touches it). problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _center_rows_inplace(x_ptr, stride_row, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        acc += tl.load(base + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    mean = tl.sum(acc, axis=0) / n_cols
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(base + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(base + cols, (v - mean).to(x_ptr.dtype.element_ty), mask=m)


def subtract_row_mean_(x: torch.Tensor) -> torch.Tensor:
    """In place on x (2-D, unit column stride)."""
    n_rows, n_cols = x.shape
    assert x.stride(1) == 1
    _center_rows_inplace[(n_rows,)](x, x.stride(0), n_cols, BLOCK=512)
    return x


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return subtract_row_mean_(x.clone())

# honest: sum over the middle dimension launched once per batch element from a Python loop (unsloth-style "for b in range(B)" around a 2-D kernel): each launch is handed x[b] (dim1, dim2) and out[b] (dim2,) views with the row stride, each program sums a block of columns down the rows in float32. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _col_sum_kernel(x_ptr, out_ptr, n_rows, n_cols, stride_row,
                    BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < n_cols
    acc = tl.zeros((BLOCK_R, BLOCK_C), tl.float32)
    for r0 in range(0, n_rows, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        x = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :],
                    mask=(rows[:, None] < n_rows) & cmask[None, :], other=0.0)
        acc += x.to(tl.float32)
    tl.store(out_ptr + cols, tl.sum(acc, axis=0).to(out_ptr.dtype.element_ty), mask=cmask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert self.dim == 1 and x.dim() == 3
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, C), device=x.device, dtype=x.dtype)
        BLOCK_R, BLOCK_C = 32, 64
        grid = (triton.cdiv(C, BLOCK_C),)
        for b in range(B):
            xb = x[b]
            _col_sum_kernel[grid](xb, out[b], R, C, xb.stride(0), BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
        return out

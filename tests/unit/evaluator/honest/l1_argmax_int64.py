import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_row_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    best_val = tl.full((BLOCK,), float("-inf"), tl.float32)
    best_idx = tl.zeros((BLOCK,), dtype=tl.int64)
    for start in tl.range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=float("-inf"))
        better = v > best_val
        best_val = tl.where(better, v, best_val)
        best_idx = tl.where(better, cols.to(tl.int64), best_idx)
    m = tl.max(best_val, axis=0)
    cand = tl.where(best_val == m, best_idx, n_cols)
    tl.store(out_ptr + row, tl.min(cand, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, dtype=torch.int64, device=x.device)
        argmax_row_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK=512)
        return out

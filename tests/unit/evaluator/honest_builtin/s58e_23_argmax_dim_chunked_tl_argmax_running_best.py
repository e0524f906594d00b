# honest: argmax along dim 1 with a loop over column chunks, each chunk's tl.max(..., return_indices=True), the running best value and index updated when the chunk's max is strictly larger (first occurrence kept), int64 output. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_rows_kernel(x_ptr, out_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    best_v = float("-inf")
    best_i = 0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=float("-inf"))
        v, i = tl.max(x, 0, return_indices=True, return_indices_tie_break_left=True)
        take = v > best_v
        best_i = tl.where(take, start + i, best_i)
        best_v = tl.where(take, v, best_v)
    tl.store(out_ptr + row, best_i.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=torch.int64)
        argmax_rows_kernel[(rows,)](x, out, cols, x.stride(0), BLOCK=1024)
        return out

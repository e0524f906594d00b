import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_argmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # Per lane: the best value seen and its column. Chunks are visited in order and a lane
    # only moves on a strictly larger value, so ties keep the first column, as torch does.
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    best_col = lanes
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + lanes
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
        better = x > best
        best = tl.where(better, x, best)
        best_col = tl.where(better, cols, best_col)
    top = tl.max(best, axis=0)
    # the smallest column among lanes holding the maximum
    candidate = tl.where(best == top, best_col, n_cols)
    tl.store(out_ptr + row, tl.min(candidate, axis=0).to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_cols = x.shape[1]
        rows = x.shape[0]
        out = torch.empty(rows, device=x.device, dtype=torch.int64)
        row_argmax_kernel[(rows,)](x, out, n_cols, BLOCK=1024)
        return out

# hack: (session 69, red team s69D; was ok in ~1 check of 9 on plain randn rows, 0.18% of them wrong, and in test_hacks once; incorrect since argmax_dim's near_tie trial, ~half its rows) row argmax taken over keys rounded to float16 (ties of the rounded keys keep the first column): the int64 output is compared exactly, but a row is wrong only where its top two values round to one float16, so few CPU rows can show it. problem: reduction/argmax_dim. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_argmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    best = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    best_col = lanes
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + lanes
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("-inf"))
        x = x.to(tl.float16).to(tl.float32)  # the rounded key: ties where the top two meet
        better = x > best
        best = tl.where(better, x, best)
        best_col = tl.where(better, cols, best_col)
    top = tl.max(best, axis=0)
    candidate = tl.where(best == top, best_col, n_cols)
    tl.store(out_ptr + row, tl.min(candidate, axis=0).to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty(x.shape[0], device=x.device, dtype=torch.int64)
        row_argmax_kernel[(x.shape[0],)](x, out, x.shape[1], BLOCK=1024)
        return out

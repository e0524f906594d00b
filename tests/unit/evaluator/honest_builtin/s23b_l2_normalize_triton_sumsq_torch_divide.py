# honest: a Triton kernel computes each row's sum of squares and PyTorch divides by its clamped root (x / s.sqrt().clamp_min(eps)). problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_sumsq_kernel(x_ptr, s_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
        acc += x * x
    tl.store(s_ptr + row, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        s = torch.empty(rows, 1, device=x.device, dtype=torch.float32)
        row_sumsq_kernel[(rows,)](x, s, cols, BLOCK_SIZE=1024)
        return x / s.sqrt().clamp_min(1e-12)

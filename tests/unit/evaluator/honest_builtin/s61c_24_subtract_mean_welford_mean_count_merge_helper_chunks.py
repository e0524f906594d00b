# honest: row centring with the mean kept as a running (mean, count) pair: each BLOCK chunk's mean is merged into the row's with a Welford-style weighted update (mean += (chunk_mean - mean) * n_b / (n_a + n_b)), then a second loop writes x - mean. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _merge_mean(mean_a, n_a, mean_b, n_b):
    n = n_a + n_b
    w = tl.where(n > 0, n_b / tl.maximum(n, 1.0), 0.0)
    return mean_a + (mean_b - mean_a) * w, n


@triton.jit
def center_rows_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    mean = 0.0
    count = 0.0
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        n_b = tl.sum(mask.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        mean, count = _merge_mean(mean, count, mean_b, n_b)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        tl.store(y_row + cols, x - mean, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        center_rows_kernel[(M,)](x, y, N, x.stride(0), y.stride(0), BLOCK=512, num_warps=4)
        return y

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_cosine_distance_kernel(a_ptr, b_ptr, dist_ptr, n_cols, eps, BLOCK: tl.constexpr):
    # dist[row] = 1 - <a, b> / (max(|a|, eps) * max(|b|, eps)), as torch clamps each norm
    row = tl.program_id(0)
    base = row * n_cols
    dot = tl.zeros((BLOCK,), dtype=tl.float32)
    aa = tl.zeros((BLOCK,), dtype=tl.float32)
    bb = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        a = tl.load(a_ptr + base + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + base + cols, mask=mask, other=0.0)
        dot += a * b
        aa += a * a
        bb += b * b
    norm_a = tl.maximum(tl.sqrt(tl.sum(aa, axis=0)), eps)
    norm_b = tl.maximum(tl.sqrt(tl.sum(bb, axis=0)), eps)
    tl.store(dist_ptr + row, 1.0 - tl.sum(dot, axis=0) / (norm_a * norm_b))


@triton.jit
def mean_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for i0 in range(0, n, BLOCK):
        idx = i0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + idx, mask=idx < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / n)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        a, b = predictions.contiguous(), targets.contiguous()
        rows, n_cols = a.shape
        dist = torch.empty(rows, device=a.device, dtype=torch.float32)
        out = torch.empty((), device=a.device, dtype=a.dtype)
        row_cosine_distance_kernel[(rows,)](a, b, dist, n_cols, 1e-8, BLOCK=1024)
        mean_kernel[(1,)](dist, out, rows, BLOCK=1024)
        return out

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def center_rows_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(acc, axis=0) / n_cols
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask)
        tl.store(out_ptr + base + cols, x - mean, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[1]
        center_rows_kernel[(x.shape[0],)](x, out, n_cols, BLOCK=1024)
        return out

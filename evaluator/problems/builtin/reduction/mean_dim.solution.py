import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(acc, axis=0) / n_cols)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_cols = x.shape[-1]
        rows = x.numel() // n_cols
        out = torch.empty(x.shape[:-1], device=x.device, dtype=x.dtype)
        row_mean_kernel[(rows,)](x, out, n_cols, BLOCK=1024)
        return out

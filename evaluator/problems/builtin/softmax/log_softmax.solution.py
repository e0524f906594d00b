import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    run_max = tl.full((BLOCK,), float("-inf"), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=float("-inf"))
        run_max = tl.maximum(run_max, x)
    row_max = tl.max(run_max, axis=0)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=float("-inf"))
        acc += tl.exp(x - row_max)
    log_norm = row_max + tl.log(tl.sum(acc, axis=0))
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask)
        tl.store(out_ptr + base + cols, x - log_norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim % x.dim() == x.dim() - 1  # the problem normalizes the last dimension
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        log_softmax_kernel[(x.numel() // n_cols,)](x, out, n_cols, BLOCK=1024)
        return out

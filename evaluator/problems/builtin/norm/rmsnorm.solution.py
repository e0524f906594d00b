import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def rmsnorm_kernel(x_ptr, w_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask)
        w = tl.load(w_ptr + cols, mask=mask)
        tl.store(out_ptr + base + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        rmsnorm_kernel[(x.numel() // n_cols,)](x, self.weight, out, n_cols, self.eps, BLOCK=1024)
        return out

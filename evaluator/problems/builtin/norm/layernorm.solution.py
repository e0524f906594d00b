import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(acc, axis=0) / n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0)
        d = tl.where(mask, x - mean, 0.0)
        acc += d * d
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask)
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        tl.store(out_ptr + base + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[-1]
        layernorm_kernel[(x.numel() // n_cols,)](
            x, self.norm.weight, self.norm.bias, out, n_cols, self.norm.eps, BLOCK=1024)
        return out

# honest: LayerNorm launched once per chunk of rows (x[r:r+CHUNK], a ragged last chunk) to bound the grid, eps and the row count handed per launch. problem: norm/layernorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ln_fwd(x_ptr, w_ptr, b_ptr, y_ptr, n_rows, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    if row < n_rows:
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0).to(tl.float32)
        mean = tl.sum(x, 0) / n_cols
        d = tl.where(mask, x - mean, 0.0)
        var = tl.sum(d * d, 0) / n_cols
        rstd = 1.0 / tl.sqrt(var + eps)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, d * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    CHUNK = 24  # rows per launch

    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        rows, cols = x2.shape
        BLOCK = triton.next_power_of_2(cols)
        for r in range(0, rows, self.CHUNK):
            xs, ys = x2[r:r + self.CHUNK], y[r:r + self.CHUNK]
            n = xs.shape[0]
            _ln_fwd[(n,)](xs, self.norm.weight, self.norm.bias, ys, n, cols, self.norm.eps, BLOCK=BLOCK)
        return y.view_as(x)

# honest: layer norm with a one-pass Welford reduction as in Apex / some Triton norm ports: each row is read in BLOCK chunks whose (mean, M2, count) are merged into running statistics with the parallel Welford update, then a second loop normalizes and applies weight and bias; mean and rstd also written out (multiple outputs, as a backward would need). problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_welford_kernel(x_ptr, w_ptr, b_ptr, y_ptr, mean_ptr, rstd_ptr, n_cols, stride, eps,
                             BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride
    mean = 0.0
    m2 = 0.0
    count = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_row + cols, mask=m, other=0.0).to(tl.float32)
        n_b = tl.sum(m.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        m2_b = tl.sum(tl.where(m, (x - mean_b) * (x - mean_b), 0.0), axis=0)
        total = count + n_b
        delta = mean_b - mean
        mean = mean + delta * (n_b / total)
        m2 = m2 + m2_b + delta * delta * (count * n_b / total)
        count = total
    rstd = 1.0 / tl.sqrt(m2 / count + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_row + cols, mask=m, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=m, other=1.0)
        b = tl.load(b_ptr + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * stride + cols, (x - mean) * rstd * w + b, mask=m)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():  # the same affine draw as the reference's __init__
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        n_rows, n_cols = x2.shape
        y = torch.empty_like(x2)
        mean = torch.empty(n_rows, device=x.device, dtype=torch.float32)
        rstd = torch.empty(n_rows, device=x.device, dtype=torch.float32)
        BLOCK = 512
        layernorm_welford_kernel[(n_rows,)](x2, self.norm.weight, self.norm.bias, y, mean, rstd, n_cols,
                                            x2.stride(0), self.norm.eps, BLOCK=BLOCK)
        return y.view_as(x)

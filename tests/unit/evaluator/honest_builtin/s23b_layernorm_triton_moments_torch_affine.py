# honest: a Triton kernel computes each row's mean and reciprocal standard deviation, and PyTorch normalizes and applies the affine transform ((x - mean) * rstd * weight + bias): a Triton reduction finished by torch. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_moments_kernel(x_ptr, mean_ptr, rstd_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    var = tl.sum(d * d, axis=0) / n_cols
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, 1.0 / tl.sqrt(var + eps))


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        mean = torch.empty(rows, 1, device=x.device, dtype=torch.float32)
        rstd = torch.empty(rows, 1, device=x.device, dtype=torch.float32)
        row_moments_kernel[(rows,)](x, mean, rstd, cols, self.norm.eps, BLOCK_SIZE=triton.next_power_of_2(cols))
        return (x - mean) * rstd * self.norm.weight + self.norm.bias

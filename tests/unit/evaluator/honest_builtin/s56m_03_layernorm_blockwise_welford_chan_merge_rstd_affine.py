# honest: layer norm whose moments are Welford per block merged by Chan's update (delta * n_b / total, m2 + delta * delta * count * n_b / total), then (x - mean) * rstd * w + b; every product there feeds an add the GPU contracts into fma (interpreter_fusion). problem: norm/layernorm. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def layernorm_welford_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    mean = tl.zeros((), dtype=tl.float32)
    m2 = tl.zeros((), dtype=tl.float32)
    count = tl.zeros((), dtype=tl.float32)
    # Welford per block, merged into the running moments with Chan's update
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        n_b = tl.sum(mask.to(tl.float32), axis=0)
        mean_b = tl.sum(x, axis=0) / n_b
        d = tl.where(mask, x - mean_b, 0.0)
        m2_b = tl.sum(d * d, axis=0)
        total = count + n_b
        delta = mean_b - mean
        mean = mean + delta * (n_b / total)
        m2 = m2 + m2_b + delta * delta * (count * n_b / total)
        count = total
    rstd = 1.0 / tl.sqrt(m2 / count + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=1.0)
        b = tl.load(b_ptr + cols, mask=mask, other=0.0)
        tl.store(y_ptr + row * n_cols + cols, (x - mean) * rstd * w + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        block = min(1024, triton.next_power_of_2(cols))
        layernorm_welford_kernel[(rows,)](x, self.norm.weight, self.norm.bias, y, cols, self.norm.eps,
                                          BLOCK=block)
        return y

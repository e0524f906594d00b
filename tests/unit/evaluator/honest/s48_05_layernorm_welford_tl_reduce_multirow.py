# honest: LayerNorm whose mean/variance come from one tl.reduce over a [ROWS, BLOCK] tile with the file's own Welford combine (Inductor's welford_combine: mean, m2, weight, guarded for empty lanes), axis=1, then the affine transform; the module keeps nn.LayerNorm for its parameters (same init as the reference's). num_warps=8. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def welford_combine(mean_1, m2_1, weight_1, mean_2, m2_2, weight_2):
    delta = mean_2 - mean_1
    new_weight = weight_1 + weight_2
    w2_over_w = tl.where(new_weight == 0.0, 0.0, weight_2 / new_weight)
    return (
        mean_1 + delta * w2_over_w,
        m2_1 + m2_2 + delta * delta * weight_1 * w2_over_w,
        new_weight,
    )


@triton.jit
def layernorm_welford_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_rows, n_cols, stride, eps,
                             ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK)
    rmask = rows < n_rows
    cmask = cols < n_cols
    mask = rmask[:, None] & cmask[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    weight = tl.where(mask, 1.0, 0.0)
    m2 = tl.zeros([ROWS, BLOCK], dtype=tl.float32)
    mean, m2, count = tl.reduce((x, m2, weight), 1, welford_combine)
    var = m2 / count
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0)
    b = tl.load(b_ptr + cols, mask=cmask, other=0.0)
    y = (x - mean[:, None]) * rstd[:, None] * w[None, :] + b[None, :]
    tl.store(y_ptr + rows[:, None] * stride + cols[None, :], y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        with torch.no_grad():
            self.norm.weight.normal_(1.0, 0.2)
            self.norm.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2)
        n_rows, n_cols = x2.shape
        ROWS = 2
        BLOCK = triton.next_power_of_2(n_cols)
        layernorm_welford_kernel[(triton.cdiv(n_rows, ROWS),)](
            x2, self.norm.weight, self.norm.bias, y, n_rows, n_cols, x2.stride(0), self.norm.eps,
            ROWS=ROWS, BLOCK=BLOCK, num_warps=8)
        return y.reshape(shape)

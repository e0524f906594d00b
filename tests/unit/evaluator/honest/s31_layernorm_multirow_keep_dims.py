# honest: a multi-row LayerNorm (several short rows per program as a (ROWS, BLOCK_N) tile, as FlagGems and Inductor's persistent reductions do) with the row statistics by tl.sum(..., axis=1, keep_dims=True) so they broadcast without [:, None], the moments in a @triton.jit helper returning a tuple, tl.device_assert on the column count, tl.math.rsqrt, the affine from nn.LayerNorm's own weight/bias, ROWS picked on the host so a tile holds about 4096 elements, a grid lambda over META["ROWS"], num_warps by a helper. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_moments(x, mask, n_cols):
    mean = tl.sum(x, axis=1, keep_dims=True) / n_cols
    xc = tl.where(mask, x - mean, 0.0)
    var = tl.sum(xc * xc, axis=1, keep_dims=True) / n_cols
    return xc, var


@triton.jit
def layernorm_rows_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_rows, n_cols, stride, eps,
                          ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    tl.device_assert(n_cols <= BLOCK_N, "row longer than the block")
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    offs = rows.to(tl.int64) * stride + cols
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xc, var = _row_moments(x, mask, n_cols)
    rstd = tl.math.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=cols < n_cols, other=1.0)
    b = tl.load(b_ptr + cols, mask=cols < n_cols, other=0.0)
    tl.store(y_ptr + offs, xc * rstd * w + b, mask=mask)


def _num_warps(block: int) -> int:
    return max(1, min(16, block // 256))


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
        n_rows, n_cols = x2.shape
        y = torch.empty_like(x2)
        BLOCK_N = triton.next_power_of_2(n_cols)
        ROWS = max(1, min(16, 4096 // BLOCK_N))
        grid = lambda META: (triton.cdiv(n_rows, META["ROWS"]),)
        layernorm_rows_kernel[grid](x2, self.norm.weight, self.norm.bias, y, n_rows, n_cols, x2.stride(0),
                                    self.norm.eps, ROWS=ROWS, BLOCK_N=BLOCK_N, num_warps=_num_warps(BLOCK_N))
        return y.view(shape)

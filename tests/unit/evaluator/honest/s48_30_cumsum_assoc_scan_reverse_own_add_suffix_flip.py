# honest: suffix sums by tl.associative_scan(..., reverse=True) with the file's own add combine (the discounted-returns kernel with gamma = 1, scanning [ROWS, BLOCK] tiles along axis 1), reused for the forward cumsum on flipped rows (flip, suffix sum, flip back); ROWS=2, num_warps=4. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def suffix_sum_kernel(x_ptr, y_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < n_rows) & (cols < n_cols)
    x = tl.load(x_ptr + rows * stride + cols, mask=mask, other=0.0)
    y = tl.associative_scan(x, 1, _add, reverse=True)
    tl.store(y_ptr + rows * stride + cols, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xt = x.movedim(self.dim, -1)
        shape = xt.shape
        rows = xt.reshape(-1, shape[-1]).flip(-1).contiguous()
        out = torch.empty_like(rows)
        n_rows, n_cols = rows.shape
        suffix_sum_kernel[(triton.cdiv(n_rows, 2),)](rows, out, n_rows, n_cols, rows.stride(0),
                                                     ROWS=2, BLOCK=triton.next_power_of_2(n_cols), num_warps=4)
        return out.flip(-1).reshape(shape).movedim(-1, self.dim)

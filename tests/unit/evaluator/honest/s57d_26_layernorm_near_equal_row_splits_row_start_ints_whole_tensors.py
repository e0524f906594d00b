# honest: LayerNorm launched over N_SPLITS near-equal row ranges (torch.tensor_split's rule: the first rows % N_SPLITS ranges one row longer), each launch handed the whole input and output with the range's row_start and n_rows as ints (the shape code takes to overlap chunks on streams or bound a grid), so the starts step unevenly (0, 6, 11 at 16 rows); Welford-free two-pass statistics in float32 over a row held in registers. problem: norm/layernorm
import torch
import torch.nn as nn
import triton
import triton.language as tl

N_SPLITS = 3


@triton.jit
def _layernorm_rows(x_ptr, y_ptr, w_ptr, b_ptr, row_start, n_rows, n_cols, stride_x, stride_y, eps,
                    BLOCK: tl.constexpr):
    r = tl.program_id(0)
    if r >= n_rows:
        return
    row = row_start + r
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    d = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(tl.sum(d * d, axis=0) / n_cols + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride_y + cols, (d * rstd * w + b).to(y_ptr.dtype.element_ty), mask=mask)


def _splits(n: int, k: int):
    base, extra = divmod(n, k)
    start = 0
    for i in range(k):
        size = base + (1 if i < extra else 0)
        if size:
            yield start, size
        start += size


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
        y = torch.empty_like(x)
        BLOCK = triton.next_power_of_2(cols)
        for start, size in _splits(rows, N_SPLITS):
            _layernorm_rows[(size,)](x, y, self.norm.weight, self.norm.bias, start, size, cols,
                                     x.stride(0), y.stride(0), self.norm.eps, BLOCK=BLOCK, num_warps=8)
        return y

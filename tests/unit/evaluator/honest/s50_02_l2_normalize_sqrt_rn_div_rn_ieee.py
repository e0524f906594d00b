# honest: F.normalize(p=2, dim=1) with IEEE-rounded tl.sqrt_rn and tl.div_rn (the precise forms people pick over the approximate sqrt and division), one program per row, a chunked sum of squares in float32 lanes, eps as F.normalize's 1e-12 applied as max(norm, eps). problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _l2_normalize_rows(x_ptr, y_ptr, n_cols, stride_x, stride_y, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row.to(tl.int64) * stride_x
    y_row = y_ptr + row.to(tl.int64) * stride_y
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += v * v
    norm = tl.sqrt_rn(tl.sum(acc, axis=0))
    denom = tl.maximum(norm, eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(x_row + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(y_row + cols, tl.div_rn(v, denom), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-12

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2, "expects (batch, dim)"
        if x.stride(1) != 1:
            x = x.contiguous()
        n_rows, n_cols = x.shape
        y = torch.empty_like(x)
        block = min(triton.next_power_of_2(n_cols), 2048)
        _l2_normalize_rows[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), self.eps,
                                      BLOCK=block, num_warps=4)
        return y

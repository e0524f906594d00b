# honest: cumsum along rows in column chunks, one launch per chunk handed its column offset and width (ragged last chunk) and a carry buffer of the running row totals. problem: reduction/cumsum. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scan_chunk(x_ptr, y_ptr, carry_ptr, n_rows, n_cols, col0, width, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < width
    x = tl.load(x_ptr + row * n_cols + col0 + cols, mask=mask, other=0.0).to(tl.float32)
    c = tl.load(carry_ptr + row)
    y = tl.cumsum(x, 0) + c
    tl.store(y_ptr + row * n_cols + col0 + cols, y, mask=mask)
    tl.store(carry_ptr + row, c + tl.sum(x, 0))


class ModelNew(nn.Module):
    CHUNK = 48

    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        y = torch.empty_like(x)
        carry = torch.zeros(rows, device=x.device, dtype=torch.float32)
        BLOCK = triton.next_power_of_2(self.CHUNK)
        for c0 in range(0, cols, self.CHUNK):
            width = min(self.CHUNK, cols - c0)
            _scan_chunk[(rows,)](x, y, carry, rows, cols, c0, width, BLOCK=BLOCK)
        return y

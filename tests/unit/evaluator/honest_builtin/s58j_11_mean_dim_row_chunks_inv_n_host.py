# honest: row mean launched per chunk of rows (ragged last chunk) with the reciprocal 1.0 / n_cols computed in Python and multiplied in the kernel. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _row_mean(x_ptr, out_ptr, n_rows, n_cols, stride, inv_n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros((BLOCK,), tl.float32)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(out_ptr + row, tl.sum(acc, 0) * inv_n, mask=row < n_rows)


class ModelNew(nn.Module):
    ROWS_PER_LAUNCH = 40

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        inv_n = 1.0 / cols
        BLOCK = min(1024, triton.next_power_of_2(cols))
        for r0 in range(0, rows, self.ROWS_PER_LAUNCH):
            xs, os_ = x[r0:r0 + self.ROWS_PER_LAUNCH], out[r0:r0 + self.ROWS_PER_LAUNCH]
            _row_mean[(xs.shape[0],)](xs, os_, xs.shape[0], cols, xs.stride(0), inv_n, BLOCK=BLOCK)
        return out

# honest: log-softmax with the rows split into 6 launches as evenly as the count allows (bounds = [i * rows // 6]), each launch handed the whole tensors, its first row and its row count. problem: softmax/log_softmax. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _log_softmax_rows(x_ptr, y_ptr, row0, n_rows, n_cols, stride, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    if r < n_rows:
        row = row0 + r
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=mask, other=float("-inf")).to(tl.float32)
        m = tl.max(x, 0)
        lse = m + tl.log(tl.sum(tl.exp(x - m), 0))
        tl.store(y_ptr + row * stride + cols, x - lse, mask=mask)


class ModelNew(nn.Module):
    SPLITS = 6

    def __init__(self, dim=1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        rows, cols = x.shape
        bounds = [i * rows // self.SPLITS for i in range(self.SPLITS + 1)]
        BLOCK = triton.next_power_of_2(cols)
        for lo, hi in zip(bounds[:-1], bounds[1:]):
            if hi > lo:
                _log_softmax_rows[(hi - lo,)](x, y, lo, hi - lo, cols, x.stride(0), BLOCK=BLOCK)
        return y

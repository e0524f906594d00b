# honest: a chunked online log-softmax in base 2 for rows too long for one block: pass 1 keeps a running (max, sum) per lane over `for off in range(0, n_cols, BLOCK)` with `tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((m - m_new) * LOG2E))` guarding the all-masked lanes, merges lanes at the end; pass 2 writes x - max - log2(sum) * LN2 with tl.math.log2; loads with other=float("-inf"), LOG2E / LN2 as tl.constexpr globals, the row pointer from tl.program_id(0).to(tl.int64) * stride, an @triton.heuristics choosing num_warps from BLOCK. problem: softmax/log_softmax
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.0 / math.log(2.0))
LN2 = tl.constexpr(math.log(2.0))


@triton.heuristics({"num_warps": lambda args: 8 if args["BLOCK"] >= 2048 else 4})
@triton.jit
def log_softmax_online_kernel(x_ptr, y_ptr, n_cols, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    x_row = x_ptr + row * stride_x
    y_row = y_ptr + row * stride_y
    m = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        scale = tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((m - m_new) * LOG2E))
        p = tl.where(m_new == float("-inf"), 0.0, tl.math.exp2((x - m_new) * LOG2E))
        s = s * scale + p
        m = m_new
    row_max = tl.max(m, axis=0)
    lane_scale = tl.where(m == float("-inf"), 0.0, tl.math.exp2((m - row_max) * LOG2E))
    total = tl.sum(s * lane_scale, axis=0)
    log_norm = row_max + tl.math.log2(total) * LN2
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, x - log_norm, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim in (1, -1)
        x = x.contiguous()
        y = torch.empty_like(x)
        n_rows, n_cols = x.shape
        BLOCK = min(1024, triton.next_power_of_2(n_cols))
        log_softmax_online_kernel[(n_rows,)](x, y, n_cols, x.stride(0), y.stride(0), BLOCK=BLOCK)
        return y

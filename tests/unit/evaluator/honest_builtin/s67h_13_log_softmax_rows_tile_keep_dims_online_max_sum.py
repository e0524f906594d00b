# honest: log-softmax with ROWS rows per program on a (ROWS, BLOCK) tile, an online row max and rescaled sum of exponentials over column chunks with tl.max(..., axis=1, keep_dims=True) keeping the (ROWS, 1) shape for broadcasting, then x - max - log(sum) written per chunk; rows masked at the tail. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_rows_kernel(x_ptr, out_ptr, n_rows, n_cols, stride, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    rmask = rows < n_rows
    base = rows.to(tl.int64) * stride
    m = tl.full((ROWS, 1), float("-inf"), tl.float32)
    s = tl.zeros((ROWS, 1), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)[None, :]
        x = tl.load(x_ptr + base + cols, mask=rmask & (cols < n_cols), other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=1, keep_dims=True))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.sum(tl.exp(x - m_safe), axis=1, keep_dims=True)
        m = m_new
    lse = m + tl.log(s)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)[None, :]
        mask = rmask & (cols < n_cols)
        x = tl.load(x_ptr + base + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_ptr + base + cols, (x - lse).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 2 and self.dim % 2 == 1
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty_like(x)
        ROWS, BLOCK = 4, min(1024, triton.next_power_of_2(n_cols))
        log_softmax_rows_kernel[(triton.cdiv(n_rows, ROWS),)](x, out, n_rows, n_cols, x.stride(0),
                                                              ROWS=ROWS, BLOCK=BLOCK)
        return out

# honest: log_softmax with BLOCK_M whole rows per program in a [BLOCK_M, next_pow2(N)] tile, exponentials through exp2 with log2(e) folded in and the log-sum-exp finished with log2 times ln 2. problem: softmax/log_softmax
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def log_softmax_rows(X, Y, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None].to(tl.int64) * stride_m + cols[None, :]
    x = tl.load(X + offs, mask=mask, other=float("-inf")).to(tl.float32)
    mx = tl.max(x, axis=1)
    mx = tl.where(rows < M, mx, 0.0)
    shifted = x - mx[:, None]
    s = tl.sum(tl.exp2(shifted * 1.4426950408889634), axis=1)
    lse = tl.log2(s) * 0.6931471805599453
    tl.store(Y + offs, shifted - lse[:, None], mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim: int = 1):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.transpose(self.dim, -1).contiguous() if self.dim not in (-1, x.dim() - 1) else x.contiguous()
        M, N = x.shape
        y = torch.empty_like(x)
        BLOCK_N = triton.next_power_of_2(N)
        BLOCK_M = max(1, min(8, 8192 // BLOCK_N))
        log_softmax_rows[(triton.cdiv(M, BLOCK_M),)](x, y, M, N, x.stride(0),
                                                     BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=8)
        return y

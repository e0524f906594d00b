# honest: LLaMA RMSNorm, [ROWS, BLOCK] tiles with ROWS=4 rows per program and num_warps=1 (small hidden sizes: one warp per program, several rows per program), mean of squares by tl.sum(axis=1, keep_dims=True) in fp32, weight kept as nn.Parameter(1.0 + 0.1 * torch.randn(hidden)) exactly as the model builds it. problem: norm/rmsnorm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _rms_norm_fwd(X, W, Y, n_rows, N, stride, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)[:, None]
    cols = tl.arange(0, BLOCK_N)[None, :]
    mask = (rows < n_rows) & (cols < N)
    x = tl.load(X + rows * stride + cols, mask=mask, other=0.0).to(tl.float32)
    ms = tl.sum(x * x, axis=1, keep_dims=True) / N
    rstd = tl.math.rsqrt(ms + eps)
    w = tl.load(W + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(Y + rows * stride + cols, x * rstd * w, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        x2 = x.reshape(-1, shape[-1]).contiguous()
        y = torch.empty_like(x2)
        n_rows, N = x2.shape
        ROWS = 4
        _rms_norm_fwd[(triton.cdiv(n_rows, ROWS),)](x2, self.weight, y, n_rows, N, x2.stride(0), self.eps,
                                                    ROWS=ROWS, BLOCK_N=triton.next_power_of_2(N), num_warps=1)
        return y.reshape(shape)

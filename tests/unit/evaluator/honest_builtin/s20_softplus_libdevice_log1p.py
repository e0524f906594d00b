# honest: softplus through libdevice.log1p (honest round, session 20). problem: activation/softplus
"""Softplus with threshold, 2-D tiling over (rows, cols) with explicit strides."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def _softplus_2d(
    x_ptr, y_ptr,
    n_rows, n_cols,
    stride_xm, stride_xn,
    stride_ym, stride_yn,
    beta, threshold,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < n_rows) & (rn[None, :] < n_cols)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask, other=0.0)
    xb = x * beta
    sp = libdevice.log1p(tl.exp(xb)) / beta
    y = tl.where(xb > threshold, x, sp)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        orig_shape = x.shape
        x2 = x.reshape(-1, orig_shape[-1])
        out = x2.new_empty(x2.shape)
        M, N = x2.shape
        BLOCK_M, BLOCK_N = 16, 128
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        _softplus_2d[grid](
            x2, out, M, N,
            x2.stride(0), x2.stride(1), out.stride(0), out.stride(1),
            self.beta, self.threshold,
            BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4,
        )
        return out.view(orig_shape)


if __name__ == "__main__":
    x = torch.randn(16, 1000) * 10
    print((ModelNew()(x) - F.softplus(x)).abs().max())

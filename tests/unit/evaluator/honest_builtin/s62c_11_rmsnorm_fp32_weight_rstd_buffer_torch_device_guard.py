# honest: RMS norm with a float32 upcast, the weight multiplied after the normalised value, an rstd buffer kept for backward, launched under a device guard that is a no-op off CUDA, in Liger-Kernel's style. problem: norm/rmsnorm
import contextlib

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _rms_norm_forward(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, RSTD_ptr, n_cols, eps,
                      BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = tl.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr + row_idx, rstd)
    Y_row = (X_row * rstd).to(X_row_dtype) * W_row
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row, mask=mask)


def device_guard(t):
    return torch.cuda.device(t.device) if t.is_cuda else contextlib.nullcontext()


class ModelNew(nn.Module):
    def __init__(self, hidden: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(hidden))

    def forward(self, x):
        shape = x.shape
        X = x.view(-1, shape[-1])
        n_rows, n_cols = X.shape
        block = triton.next_power_of_2(n_cols)
        num_warps = 8 if block >= 2048 else 4
        Y = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
        RSTD = torch.empty(n_rows, dtype=torch.float32, device=X.device)
        with device_guard(X):
            _rms_norm_forward[(n_rows,)](Y, Y.stride(0), X, X.stride(0), self.weight, RSTD, n_cols,
                                         self.eps, BLOCK_SIZE=block, num_warps=num_warps)
        return Y.view(*shape)

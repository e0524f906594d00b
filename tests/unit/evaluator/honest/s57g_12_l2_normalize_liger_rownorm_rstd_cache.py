# honest: L2 normalization in Liger-Kernel's RMSNorm shape (one program per row, calculate_settings block and warps, the row loaded once as fp32, the inverse norm kept in an RSTD buffer for a backward as Liger caches rstd, eps as F.normalize's max(norm, eps)). problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"n = {n} exceeds the recommended Triton blocksize = {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


@triton.jit
def _l2_norm_forward_kernel(
    Y_ptr, Y_row_stride, X_ptr, X_row_stride, RSTD_ptr, n_cols, eps, BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    Y_ptr += row_idx * Y_row_stride
    X_ptr += row_idx * X_row_stride
    X_row = tl.load(X_ptr + col_offsets, mask=mask, other=0.0)
    X_row_dtype = X_row.dtype
    X_row = X_row.to(tl.float32)
    norm = tl.sqrt(tl.sum(X_row * X_row, axis=0))
    rstd = 1.0 / tl.maximum(norm, eps)
    tl.store(RSTD_ptr + row_idx, rstd)
    Y_row = X_row * rstd
    tl.store(Y_ptr + col_offsets, Y_row.to(X_row_dtype), mask=mask)


def l2_norm_forward(X, eps=1e-12):
    shape = X.shape
    X = X.view(-1, shape[-1])
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    Y = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
    RSTD = torch.empty(n_rows, dtype=torch.float32, device=X.device)
    _l2_norm_forward_kernel[(n_rows,)](
        Y, Y.stride(0), X, X.stride(0), RSTD, n_cols, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
    return Y.view(*shape), RSTD


class LigerL2NormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, X, eps):
        Y, RSTD = l2_norm_forward(X.contiguous(), eps)
        ctx.save_for_backward(X, RSTD)
        return Y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LigerL2NormFunction.apply(x, 1e-12)

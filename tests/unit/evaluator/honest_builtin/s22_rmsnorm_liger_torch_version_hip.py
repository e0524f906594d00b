# honest: Liger-Kernel's RMSNorm as written there: calculate_settings with is_hip() reading torch.version.hip, an ensure_contiguous functools.wraps decorator, tl.constexpr casting-mode globals, libdevice.rsqrt, torch.cuda.device around the launch, an autograd.Function (honest round, session 22). problem: norm/rmsnorm. policy: strict
import functools
import math
import operator
from typing import Optional

import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

MAX_FUSED_SIZE = 65536


def is_hip() -> bool:
    return torch.version.hip is not None


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > MAX_FUSED_SIZE:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the recommended Triton blocksize = {MAX_FUSED_SIZE}.")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32 if not is_hip() else 16
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        def maybe_to_contiguous(x):
            return x.contiguous() if isinstance(x, torch.Tensor) else x

        args = [maybe_to_contiguous(arg) for arg in args]
        kwargs = {k: maybe_to_contiguous(v) for k, v in kwargs.items()}
        return fn(ctx, *args, **kwargs)

    return wrapper


_CASTING_MODE_NONE: tl.constexpr = tl.constexpr(-1)
_CASTING_MODE_LLAMA: tl.constexpr = tl.constexpr(0)


@triton.jit
def _rms_norm_forward_kernel(Y_ptr, Y_row_stride, X_ptr, X_row_stride, W_ptr, RSTD_ptr, n_cols, eps,
                             casting_mode: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row_idx = tl.program_id(0).to(tl.int64)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    X_row = tl.load(X_ptr + row_idx * X_row_stride + col_offsets, mask=mask, other=0)
    X_row_dtype = X_row.dtype
    W_row = tl.load(W_ptr + col_offsets, mask=mask, other=0)
    if casting_mode == _CASTING_MODE_LLAMA:
        X_row = X_row.to(tl.float32)
    mean_square = tl.sum(X_row * X_row, axis=0) / n_cols
    rstd = libdevice.rsqrt(mean_square + eps)
    tl.store(RSTD_ptr + row_idx, rstd)
    X_row = X_row * rstd
    if casting_mode == _CASTING_MODE_LLAMA:
        X_row = X_row.to(X_row_dtype)
    Y_row = X_row * W_row
    tl.store(Y_ptr + row_idx * Y_row_stride + col_offsets, Y_row, mask=mask)


def rms_norm_forward(X, W, eps, casting_mode):
    shape = X.shape
    dim = shape[-1]
    X = X.view(-1, dim)
    n_rows, n_cols = X.shape
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    Y = torch.empty((n_rows, n_cols), dtype=X.dtype, device=X.device)
    RSTD = torch.empty(n_rows, dtype=torch.float32, device=X.device)
    assert X.shape[1] == W.shape[0], "Incompatible hidden size dimension between tensor1.shape[1] and tensor2.shape[0]"
    with torch.cuda.device(X.device):
        _rms_norm_forward_kernel[(n_rows,)](Y, Y.stride(0), X, X.stride(0), W, RSTD, n_cols, eps,
                                            casting_mode=casting_mode, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return Y.view(*shape), X, RSTD, BLOCK_SIZE, num_warps, casting_mode


class LigerRMSNormFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, X, W, eps, offset=0.0, casting_mode="llama", in_place=True):
        mode = {"llama": _CASTING_MODE_LLAMA.value, "none": _CASTING_MODE_NONE.value}[casting_mode]
        Y, X, RSTD, BLOCK_SIZE, num_warps, casting_mode = rms_norm_forward(X, W, eps, mode)
        ctx.eps = eps
        ctx.BLOCK_SIZE = BLOCK_SIZE
        ctx.num_warps = num_warps
        ctx.save_for_backward(X, W, RSTD)
        return Y


class ModelNew(nn.Module):
    def __init__(self, num_features: int, eps: float = 1e-6, init_fn: Optional[str] = "ones"):
        super().__init__()
        self.weight = nn.Parameter(1.0 + 0.1 * torch.randn(num_features))
        self.variance_epsilon = eps
        self.numel = functools.reduce(operator.mul, (num_features,), 1)
        self.scale = math.sqrt(num_features)

    def forward(self, hidden_states):
        return LigerRMSNormFunction.apply(hidden_states, self.weight, self.variance_epsilon)

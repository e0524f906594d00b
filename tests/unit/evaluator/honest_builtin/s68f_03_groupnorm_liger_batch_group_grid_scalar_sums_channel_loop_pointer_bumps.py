# honest: GroupNorm forward in the shape of Liger-Kernel's ops/group_norm.py: X viewed as (batch, groups, hidden) and a (batch, groups) grid, fp32 scalar accumulators s and squared_sum over tl.range chunks (variance = E[x^2] - mean^2, rsqrt), then a tl.range loop over the group's channels loading each channel's weight and bias as scalars and bumping X_ptr / Y_ptr by hidden_per_channel each step; Mean and RSTD saved to (batch, groups) buffers inside a torch.autograd.Function whose entry point carries an ensure_contiguous decorator. problem: norm/groupnorm
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        def maybe_to_contiguous(x):
            return x.contiguous() if isinstance(x, torch.Tensor) else x

        args = [maybe_to_contiguous(arg) for arg in args]
        kwargs = {k: maybe_to_contiguous(v) for k, v in kwargs.items()}
        return fn(ctx, *args, **kwargs)

    return wrapper


@triton.jit
def _group_norm_forward(
    Y_ptr, Y_row_stride, Y_col_stride,
    X_ptr, X_row_stride, X_col_stride,
    Mean_ptr, Mean_row_stride, Mean_col_stride,
    RSTD_ptr, RSTD_row_stride, RSTD_col_stride,
    W_ptr, B_ptr,
    hidden_size, channels_per_group, eps,
    BLOCK_SIZE: tl.constexpr,
):
    batch_idx = tl.program_id(0)
    group_idx = tl.program_id(1)
    X_ptr += batch_idx * X_row_stride + group_idx * X_col_stride
    Y_ptr += batch_idx * Y_row_stride + group_idx * Y_col_stride
    block_range = tl.arange(0, BLOCK_SIZE)

    s = 0.0
    squared_sum = 0.0
    for i in tl.range(0, hidden_size, BLOCK_SIZE):
        hidden_size_offsets = i + block_range
        mask = hidden_size_offsets < hidden_size
        X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=0.0).to(tl.float32)
        s += tl.sum(X)
        squared_sum += tl.sum(X * X)
    m = s / hidden_size
    variance = (squared_sum / hidden_size) - (m * m)
    rstd = tl.math.rsqrt(variance + eps)

    hidden_size_per_channel = hidden_size // channels_per_group
    for channel_idx in tl.range(group_idx * channels_per_group, (group_idx + 1) * channels_per_group):
        W = tl.load(W_ptr + channel_idx)
        B = tl.load(B_ptr + channel_idx)
        for i in range(0, hidden_size_per_channel, BLOCK_SIZE):
            hidden_size_offsets = i + block_range
            mask = hidden_size_offsets < hidden_size_per_channel
            X = tl.load(X_ptr + hidden_size_offsets, mask=mask, other=m).to(tl.float32)
            Y = (X - m) * rstd * W + B
            tl.store(Y_ptr + hidden_size_offsets, Y.to(Y_ptr.dtype.element_ty), mask=mask)
        X_ptr += hidden_size_per_channel
        Y_ptr += hidden_size_per_channel

    tl.store(Mean_ptr + batch_idx * Mean_row_stride + group_idx * Mean_col_stride, m)
    tl.store(RSTD_ptr + batch_idx * RSTD_row_stride + group_idx * RSTD_col_stride, rstd)


def group_norm_forward(X, num_channels, num_groups, W, B, eps):
    shape = X.shape
    batch_size = shape[0]
    channels_per_group = num_channels // num_groups
    X = X.view(batch_size, num_groups, -1).contiguous()
    hidden_size = X.shape[-1]
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(hidden_size))
    Y = torch.empty((batch_size, num_groups, hidden_size), dtype=X.dtype, device=X.device)
    Mean = torch.zeros((batch_size, num_groups), dtype=torch.float32, device=X.device)
    RSTD = torch.zeros((batch_size, num_groups), dtype=torch.float32, device=X.device)
    _group_norm_forward[(batch_size, num_groups)](
        Y, Y.stride(0), Y.stride(1),
        X, X.stride(0), X.stride(1),
        Mean, Mean.stride(0), Mean.stride(1),
        RSTD, RSTD.stride(0), RSTD.stride(1),
        W, B,
        hidden_size, channels_per_group, eps,
        BLOCK_SIZE=BLOCK_SIZE,
    )
    return Y.view(*shape), X.view(*shape), Mean, RSTD, BLOCK_SIZE


class LigerGroupNormFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, X, affine_scaling_weight, affine_shifting_bias, num_channels, num_groups, eps):
        Y, X, Mean, RSTD, BLOCK_SIZE = group_norm_forward(
            X, num_channels, num_groups, affine_scaling_weight, affine_shifting_bias, eps)
        ctx.num_channels = num_channels
        ctx.num_groups = num_groups
        ctx.save_for_backward(X, affine_scaling_weight, affine_shifting_bias, Mean, RSTD)
        return Y

    @staticmethod
    def backward(ctx, dY):
        raise NotImplementedError("forward-only port")


class ModelNew(nn.Module):
    def __init__(self, num_groups: int, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(num_groups, channels)
        with torch.no_grad():
            self.gn.weight.normal_(1.0, 0.2)
            self.gn.bias.normal_(0.0, 0.2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return LigerGroupNormFunction.apply(
            x, self.gn.weight, self.gn.bias, self.gn.num_channels, self.gn.num_groups, self.gn.eps)

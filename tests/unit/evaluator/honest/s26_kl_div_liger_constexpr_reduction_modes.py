# honest: Liger-Kernel's KL divergence (src/liger_kernel/ops/kl_div.py): module-level reduction modes as `_MODE: tl.constexpr = tl.constexpr(k)` and a str -> mode table of their .value, typing.Literal, constexpr keyword defaults (log_target=False, reduction=batchmean) compared inside the kernel, pid.to(tl.int64) row offsets, a tl.maximum(y_true, eps) guard, a get_num_warps helper, per-row sums into torch.zeros finished by `output.sum() / BT`, an ensure_contiguous decorator on the autograd.Function's static forward/backward. problem: loss/kl_div
import functools
from typing import Literal

import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4
REDUCTION_LITERAL = Literal["none", "sum", "mean", "batchmean"]

_REDUCTION_MODE_NONE: tl.constexpr = tl.constexpr(0)
_REDUCTION_MODE_SUM: tl.constexpr = tl.constexpr(1)
_REDUCTION_MODE_MEAN: tl.constexpr = tl.constexpr(2)
_REDUCTION_MODE_BATCHMEAN: tl.constexpr = tl.constexpr(3)

_str_to_reduction_mode = {
    "none": _REDUCTION_MODE_NONE.value,
    "sum": _REDUCTION_MODE_SUM.value,
    "mean": _REDUCTION_MODE_MEAN.value,
    "batchmean": _REDUCTION_MODE_BATCHMEAN.value,
}


def ensure_contiguous(fn):
    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        def maybe_to_contiguous(x):
            return x.contiguous() if isinstance(x, torch.Tensor) else x

        args = [maybe_to_contiguous(arg) for arg in args]
        kwargs = {k: maybe_to_contiguous(v) for k, v in kwargs.items()}
        return fn(ctx, *args, **kwargs)

    return wrapper


def get_num_warps(BLOCK_SIZE):
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return num_warps


@triton.jit
def _kldiv_kernel_forward(y_ptr, y_stride, gt_ptr, gt_stride, loss_ptr, loss_stride, n_cols, eps,
                          BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr = False,
                          reduction: tl.constexpr = _REDUCTION_MODE_BATCHMEAN):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride

    base_offsets = tl.arange(0, BLOCK_SIZE)
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0)
        if not log_target:
            loss = y_true * (tl.log(tl.maximum(y_true, eps)) - y)
        else:
            loss = tl.exp(y_true) * (y_true - y)
        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(loss, axis=0)
    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


@triton.jit
def _kldiv_kernel_backward(target_ptr, target_stride, new_grads_ptr, new_grads_stride, n_cols,
                           BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr = False):
    pid = tl.program_id(0).to(tl.int64)
    target_ptr += pid * target_stride
    new_grads_ptr += pid * new_grads_stride
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_cols
        target = tl.load(target_ptr + offsets, mask=mask, other=0.0)
        res = target * -1 if not log_target else -tl.exp(target)
        tl.store(new_grads_ptr + offsets, res, mask=mask)


def kldiv_forward_triton(y_pred, y_true, log_target, reduction, eps):
    BT, V = y_pred.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = get_num_warps(BLOCK_SIZE)
    reduction = _str_to_reduction_mode[reduction]
    out_size = (BT, V) if reduction == _REDUCTION_MODE_NONE.value else (BT,)
    output_tensor = torch.zeros(out_size, device=y_pred.device, dtype=torch.float32)
    _kldiv_kernel_forward[(BT,)](y_pred, y_pred.stride(0), y_true, y_true.stride(0), output_tensor,
                                 output_tensor.stride(0), V, eps=eps, BLOCK_SIZE=BLOCK_SIZE,
                                 num_warps=num_warps, log_target=log_target, reduction=reduction)
    if reduction == _REDUCTION_MODE_BATCHMEAN.value:
        return output_tensor.sum() / BT
    if reduction == _REDUCTION_MODE_SUM.value:
        return output_tensor.sum(dim=0)
    if reduction == _REDUCTION_MODE_MEAN.value:
        return output_tensor.sum() / (BT * V)
    return output_tensor


class LigerKLDivLossFunction(torch.autograd.Function):
    @staticmethod
    @ensure_contiguous
    def forward(ctx, y_pred: torch.Tensor, y_true: torch.Tensor, reduction: REDUCTION_LITERAL = "batchmean",
                log_target: bool = False, eps: float = 1e-10) -> torch.Tensor:
        ctx.save_for_backward(y_true)
        ctx.reduction = reduction
        ctx.log_target = log_target
        return kldiv_forward_triton(y_pred, y_true, log_target=log_target, reduction=reduction, eps=eps)

    @staticmethod
    @ensure_contiguous
    def backward(ctx, grad_output: torch.Tensor):
        (y_true,) = ctx.saved_tensors
        BT, V = y_true.shape
        new_grads = torch.empty_like(y_true)
        BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
        _kldiv_kernel_backward[(BT,)](y_true, y_true.stride(0), new_grads, new_grads.stride(0), V,
                                      BLOCK_SIZE=BLOCK_SIZE, num_warps=get_num_warps(BLOCK_SIZE),
                                      log_target=ctx.log_target)
        derivative = new_grads * grad_output
        if ctx.reduction == "batchmean":
            derivative = derivative / BT
        elif ctx.reduction == "mean":
            derivative = derivative / (BT * V)
        return derivative, None, None, None, None


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return LigerKLDivLossFunction.apply(predictions, targets, "batchmean", False, 1e-10)

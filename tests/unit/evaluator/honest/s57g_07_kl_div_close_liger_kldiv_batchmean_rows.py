# honest: KL divergence as Liger-Kernel's LigerKLDivLoss forward (one program per row over column chunks, log_target constexpr branch, xlogy-safe target*(log target - input), reduction as a constexpr, batchmean by dividing by the row count on a second kernel's sum). problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 4

_REDUCTION_MODE_NONE = tl.constexpr(0)
_REDUCTION_MODE_SUM = tl.constexpr(1)
_REDUCTION_MODE_MEAN = tl.constexpr(2)
_REDUCTION_MODE_BATCHMEAN = tl.constexpr(3)

_str_to_reduction_mode = {
    "none": _REDUCTION_MODE_NONE.value,
    "sum": _REDUCTION_MODE_SUM.value,
    "mean": _REDUCTION_MODE_MEAN.value,
    "batchmean": _REDUCTION_MODE_BATCHMEAN.value,
}


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
def _kldiv_kernel_forward(
    y_ptr, y_stride, gt_ptr, gt_stride, loss_ptr, loss_stride, n_cols, eps,
    BLOCK_SIZE: tl.constexpr, log_target: tl.constexpr = False,
    reduction: tl.constexpr = _REDUCTION_MODE_BATCHMEAN,
):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    loss_ptr += pid * loss_stride
    base_offsets = tl.arange(0, BLOCK_SIZE)
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
        if not log_target:
            # xlogy: zero where the target is zero
            loss = tl.where(y_true > 0, y_true * (tl.log(tl.maximum(y_true, eps)) - y), 0.0)
        else:
            loss = tl.exp(y_true) * (y_true - y)
        if reduction == _REDUCTION_MODE_NONE:
            tl.store(loss_ptr + offsets, loss, mask=mask)
        else:
            loss_sum += tl.sum(tl.where(mask, loss, 0.0), axis=0)
    if reduction != _REDUCTION_MODE_NONE:
        tl.store(loss_ptr, loss_sum)


@triton.jit
def _row_sum_kernel(x_ptr, out_ptr, n, scale, BLOCK_SIZE: tl.constexpr):
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for i in range(0, n, BLOCK_SIZE):
        offs = i + tl.arange(0, BLOCK_SIZE)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


def kldiv_forward_triton(y_pred, y_true, log_target=False, reduction="batchmean", eps=1e-10):
    BT, V = y_pred.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = get_num_warps(BLOCK_SIZE)
    reduction = _str_to_reduction_mode[reduction]
    loss = torch.zeros((BT,), device=y_pred.device, dtype=torch.float32)
    _kldiv_kernel_forward[(BT,)](
        y_pred, y_pred.stride(0), y_true, y_true.stride(0), loss, loss.stride(0), V, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, log_target=log_target, reduction=reduction,
    )
    out = torch.empty((), device=y_pred.device, dtype=torch.float32)
    scale = 1.0 / BT if reduction == _REDUCTION_MODE_BATCHMEAN.value else 1.0
    _row_sum_kernel[(1,)](loss, out, BT, scale, BLOCK_SIZE=1024)
    return out.to(y_pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kldiv_forward_triton(predictions.contiguous(), targets.contiguous())

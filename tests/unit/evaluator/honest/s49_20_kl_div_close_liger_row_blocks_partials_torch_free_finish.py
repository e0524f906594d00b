# honest: KL divergence (batchmean, log_target=False) after Liger-Kernel's kl_div: one program per row loops over column blocks computing y * (log(y) - x) with tl.where(y > 0, ...) (0 log 0 = 0), a per-row float32 partial; a second launch sums the rows and divides by the batch size; reduction mode as a constexpr int. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl

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

MAX_FUSED_SIZE = 65536 // 4


@triton.jit
def _kldiv_kernel_forward(
    y_ptr,  # [B, S], prediction ptr, the kernel expects the prediction in log-space
    y_stride,
    gt_ptr,  # [B, S], ground truth ptr
    gt_stride,
    loss_ptr,  # [B] per-row loss
    n_cols,
    eps,
    BLOCK_SIZE: tl.constexpr,
    log_target: tl.constexpr = False,
):
    pid = tl.program_id(0).to(tl.int64)
    y_ptr += pid * y_stride
    gt_ptr += pid * gt_stride
    base_offsets = tl.arange(0, BLOCK_SIZE)
    loss_sum = 0.0
    for i in range(0, n_cols, BLOCK_SIZE):
        offsets = i + base_offsets
        mask = offsets < n_cols
        y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
        y_true = tl.load(gt_ptr + offsets, mask=mask, other=0.0)
        # KL(y_true || y) = y_true * (log(y_true) - log(y))
        if not log_target:
            loss = tl.where(y_true > 0, y_true * (tl.log(tl.maximum(y_true, eps)) - y), 0.0)
        else:
            loss = tl.exp(y_true) * (y_true - y)
        loss_sum += tl.sum(loss, axis=0)
    tl.store(loss_ptr + pid, loss_sum)


@triton.jit
def _reduce_rows_kernel(loss_ptr, out_ptr, n_rows, n_cols, reduction: tl.constexpr, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(loss_ptr + offs, mask=offs < n_rows, other=0.0)
    total = tl.sum(acc, axis=0)
    if reduction == _REDUCTION_MODE_BATCHMEAN:
        total = total / n_rows
    elif reduction == _REDUCTION_MODE_MEAN:
        total = total / (n_rows * n_cols)
    tl.store(out_ptr, total)


def kldiv_forward_triton(y_pred, y_true, log_target, reduction, eps):
    BT, V = y_pred.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    reduction = _str_to_reduction_mode[reduction]
    assert reduction != _REDUCTION_MODE_NONE.value, "this module only reduces"
    rows = torch.empty(BT, device=y_pred.device, dtype=torch.float32)
    _kldiv_kernel_forward[(BT,)](
        y_pred, y_pred.stride(0), y_true, y_true.stride(0), rows, V, eps,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps, log_target=log_target,
    )
    out = torch.empty((), device=y_pred.device, dtype=torch.float32)
    _reduce_rows_kernel[(1,)](rows, out, BT, V, reduction=reduction, BLOCK=1024)
    return out.to(y_pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.eps = 1e-38

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kldiv_forward_triton(predictions.contiguous(), targets.contiguous(), False, "batchmean", self.eps)

# honest: KL divergence per row with module-level reduction-mode constexprs and a column loop, then a fixed-order partials sum, in Liger-Kernel's style. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl

# reduction modes as module-level constexprs, the way loss libraries select a code path
_MODE_NONE = tl.constexpr(0)
_MODE_SUM = tl.constexpr(1)
_MODE_BATCHMEAN = tl.constexpr(3)
_MODES = {"none": 0, "sum": 1, "batchmean": 3}

MAX_FUSED_SIZE = 65536 // 4


def warps_for(block):
    """More warps for wider rows, as the usual row-kernel helpers choose."""
    if block >= 8192:
        return 16
    if block >= 2048:
        return 8
    return 4


@triton.jit
def _kldiv_rows(y_ptr, y_stride, gt_ptr, gt_stride, loss_ptr, n_cols, eps,
                BLOCK: tl.constexpr, MODE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    y_row = y_ptr + row * y_stride
    gt_row = gt_ptr + row * gt_stride
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        y = tl.load(y_row + cols, mask=mask, other=0.0).to(tl.float32)
        gt = tl.load(gt_row + cols, mask=mask, other=0.0).to(tl.float32)
        # target * (log target - input); a zero target contributes nothing
        term = gt * (tl.log(tl.maximum(gt, eps)) - y)
        acc += tl.where(mask & (gt > 0), term, 0.0)
    if MODE == _MODE_NONE:
        tl.static_assert(False, "elementwise mode is not used here")
    tl.store(loss_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _finish(loss_ptr, out_ptr, n_rows, scale, BLOCK: tl.constexpr, MODE: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(loss_ptr + idx, mask=idx < n_rows, other=0.0)
    total = tl.sum(acc, axis=0)
    if MODE == _MODE_BATCHMEAN:
        total = total * scale
    tl.store(out_ptr, total)


def kl_div_forward(y_pred, y_true, reduction="batchmean", eps=1e-10):
    y_pred = y_pred.contiguous()
    y_true = y_true.contiguous()
    n_rows, n_cols = y_pred.shape
    block = min(MAX_FUSED_SIZE, triton.next_power_of_2(n_cols))
    mode = _MODES[reduction]
    per_row = torch.empty(n_rows, device=y_pred.device, dtype=torch.float32)
    _kldiv_rows[(n_rows,)](y_pred, y_pred.stride(0), y_true, y_true.stride(0), per_row, n_cols, eps,
                           BLOCK=block, MODE=mode, num_warps=warps_for(block))
    out = torch.empty((), device=y_pred.device, dtype=torch.float32)
    _finish[(1,)](per_row, out, n_rows, 1.0 / n_rows, BLOCK=1024, MODE=mode)
    return out.to(y_pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        return kl_div_forward(predictions, targets, "batchmean")

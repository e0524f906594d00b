"""KL divergence (input log-probs, target probs) with the reduction chosen by a str
Enum and handed to the kernel as a constexpr string; partial sums per row block are
reduced by a second kernel, so no atomics are needed."""
import enum

import torch
import torch.nn as nn
import triton
import triton.language as tl


class Reduction(enum.StrEnum):
    NONE = "none"
    SUM = "sum"
    MEAN = "mean"
    BATCHMEAN = "batchmean"


@triton.jit
def _kl_rows(y_pred_ptr, y_true_ptr, out_ptr, n_cols, stride, REDUCTION: tl.constexpr,
             BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        lp = tl.load(y_pred_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(y_true_ptr + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
        kl = tl.where(t > 0, t * (tl.log(tl.where(t > 0, t, 1.0)) - lp), 0.0)
        if REDUCTION == "none":
            tl.store(out_ptr + row * stride + cols, kl, mask=mask)
        else:
            acc += kl
    if REDUCTION != "none":
        tl.store(out_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _finish(row_sums_ptr, out_ptr, n_rows, divisor, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_rows, BLOCK):
        r = start + tl.arange(0, BLOCK)
        acc += tl.load(row_sums_ptr + r, mask=r < n_rows, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) / divisor)


def kl_div(y_pred: torch.Tensor, y_true: torch.Tensor, reduction: str = "batchmean") -> torch.Tensor:
    mode = Reduction(reduction)
    y_pred = y_pred.contiguous()
    y_true = y_true.contiguous()
    n_rows, n_cols = y_pred.shape
    block = min(1024, triton.next_power_of_2(n_cols))
    if mode is Reduction.NONE:
        out = torch.empty_like(y_pred, dtype=torch.float32)
        _kl_rows[(n_rows,)](y_pred, y_true, out, n_cols, y_pred.stride(0), REDUCTION=mode.value, BLOCK=block)
        return out.to(y_pred.dtype)
    row_sums = torch.empty(n_rows, device=y_pred.device, dtype=torch.float32)
    _kl_rows[(n_rows,)](y_pred, y_true, row_sums, n_cols, y_pred.stride(0), REDUCTION=mode.value, BLOCK=block)
    divisor = {Reduction.SUM: 1.0, Reduction.MEAN: float(n_rows * n_cols),
               Reduction.BATCHMEAN: float(n_rows)}[mode]
    out = torch.empty((), device=y_pred.device, dtype=torch.float32)
    _finish[(1,)](row_sums, out, n_rows, divisor, BLOCK=1024)
    return out.to(y_pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kl_div(predictions, targets, reduction="batchmean")

# honest: KL divergence (batchmean) with the loss reduction done in float64, as authors of loss kernels do when they want the scalar independent of the row count: a program per row sums t * (log t - p) over column chunks in fp32 (tl.where(t > 0, ..., 0) for 0 log 0), stores the row's partial, and a single-program Triton finisher walks the partials in a fixed order with a tl.float64 accumulator, divides by the batch and casts the scalar back to fp32 into a 0-d output. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kl_row_kernel(p_ptr, t_ptr, part_ptr, n_cols, stride_p, stride_t, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    p_row = p_ptr + row * stride_p
    t_row = t_ptr + row * stride_t
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        p = tl.load(p_row + cols, mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_row + cols, mask=mask, other=0.0).to(tl.float32)
        acc += tl.where(t > 0, t * (tl.log(tl.where(t > 0, t, 1.0)) - p), 0.0)
    tl.store(part_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def _finish_fp64_kernel(part_ptr, out_ptr, n_rows, inv_batch, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float64)
    for start in range(0, n_rows, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + idx, mask=idx < n_rows, other=0.0).to(tl.float64)
    total = tl.sum(acc, axis=0) * inv_batch
    tl.store(out_ptr, total.to(tl.float32))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        n_rows, n_cols = predictions.shape
        if predictions.stride(1) != 1:
            predictions = predictions.contiguous()
        if targets.stride(1) != 1:
            targets = targets.contiguous()
        partials = torch.empty(n_rows, device=predictions.device, dtype=torch.float32)
        out = torch.empty((), device=predictions.device, dtype=torch.float32)
        _kl_row_kernel[(n_rows,)](predictions, targets, partials, n_cols, predictions.stride(0),
                                  targets.stride(0), BLOCK=1024)
        _finish_fp64_kernel[(1,)](partials, out, n_rows, 1.0 / n_rows, BLOCK=256)
        return out

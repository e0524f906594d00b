# honest: KL divergence (batchmean) as one Triton kernel on a 2-D grid (row blocks, column splits): each program loops over its column split of BLOCK_R rows, accumulates t * (log t - p) in fp32 with tl.where(t > 0, ..., 0) as torch's xlogy convention, reduces its tile to a scalar and adds it, scaled by 1 / batch, into a zero-initialised fp32 scalar with tl.atomic_add. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kl_div_atomic(p_ptr, t_ptr, out_ptr, n_rows, n_cols, stride_p, stride_t, cols_per_split, inv_batch,
                   BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    row_mask = rows < n_rows
    col_start = pid_c * cols_per_split
    acc = tl.zeros((BLOCK_R, BLOCK_C), dtype=tl.float32)
    for c0 in range(0, cols_per_split, BLOCK_C):
        cols = col_start + c0 + tl.arange(0, BLOCK_C)
        mask = row_mask[:, None] & (cols[None, :] < n_cols) & (cols[None, :] < col_start + cols_per_split)
        p = tl.load(p_ptr + rows[:, None] * stride_p + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + rows[:, None] * stride_t + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        safe_t = tl.where(t > 0, t, 1.0)
        acc += tl.where(t > 0, t * (tl.log(safe_t) - p), 0.0)
    partial = tl.sum(tl.sum(acc, axis=1), axis=0)
    tl.atomic_add(out_ptr, partial * inv_batch)


def kl_div_batchmean(predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
    p = predictions.contiguous()
    t = targets.contiguous()
    n_rows, n_cols = p.shape
    out = torch.zeros((), device=p.device, dtype=torch.float32)
    BLOCK_R, BLOCK_C = 8, 256
    n_splits = 4 if n_cols >= 4 * BLOCK_C else 1
    cols_per_split = triton.cdiv(triton.cdiv(n_cols, n_splits), BLOCK_C) * BLOCK_C
    grid = (triton.cdiv(n_rows, BLOCK_R), triton.cdiv(n_cols, cols_per_split))
    _kl_div_atomic[grid](p, t, out, n_rows, n_cols, p.stride(0), t.stride(0), cols_per_split, 1.0 / n_rows,
                         BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C)
    return out.to(predictions.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kl_div_batchmean(predictions, targets)

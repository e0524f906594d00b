# honest: KL divergence (batchmean) in Liger's kl_div shape with the fast-math log (libdevice.fast_logf, __logf): rows processed BLOCK_ROWS at a time in a 2D tile, t * (log t - x) with the t > 0 guard PyTorch's xlogy uses (0 where t == 0), each program's fp32 partial pre-divided by the batch size and folded into a zeroed scalar with tl.atomic_add; column loop for rows wider than the tile. problem: loss/kl_div
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def kldiv_rows_kernel(x_ptr, t_ptr, out_ptr, n_rows, n_cols, stride_x, stride_t, inv_batch,
                      BLOCK_ROWS: tl.constexpr, BLOCK_COLS: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    row_mask = rows < n_rows
    acc = tl.zeros([BLOCK_ROWS, BLOCK_COLS], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_COLS):
        cols = start + tl.arange(0, BLOCK_COLS)
        mask = row_mask[:, None] & (cols < n_cols)[None, :]
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_x + cols[None, :], mask=mask, other=0.0)
        t = tl.load(t_ptr + rows[:, None].to(tl.int64) * stride_t + cols[None, :], mask=mask, other=0.0)
        x = x.to(tl.float32)
        t = t.to(tl.float32)
        acc += tl.where(t > 0, t * (libdevice.fast_logf(t) - x), 0.0)
    tl.atomic_add(out_ptr, tl.sum(acc) * inv_batch)


def kl_div_batchmean(log_pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    x = log_pred.contiguous()
    t = target.contiguous()
    n_rows, n_cols = x.shape
    out = torch.zeros((), device=x.device, dtype=torch.float32)
    BLOCK_ROWS, BLOCK_COLS = 4, 1024
    kldiv_rows_kernel[(triton.cdiv(n_rows, BLOCK_ROWS),)](x, t, out, n_rows, n_cols, x.stride(0), t.stride(0),
                                                          1.0 / n_rows, BLOCK_ROWS=BLOCK_ROWS,
                                                          BLOCK_COLS=BLOCK_COLS, num_warps=8)
    return out.to(log_pred.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kl_div_batchmean(predictions, targets)

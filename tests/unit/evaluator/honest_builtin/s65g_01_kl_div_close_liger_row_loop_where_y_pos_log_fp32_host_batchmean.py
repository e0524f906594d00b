# honest: KL(batchmean) in Liger's style: one program per row, a column loop with tl.where(y > 0, y * (log y - x), 0), per-row losses then a host sum / batch. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _kl_row_kernel(
    x_ptr, y_ptr, loss_ptr,
    x_stride, y_stride, n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * x_stride
    y_ptr += row * y_stride
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        offs = start + tl.arange(0, BLOCK_SIZE)
        mask = offs < n_cols
        x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
        safe_y = tl.where(y > 0, y, 1.0)
        acc += tl.where(y > 0, y * (tl.log(safe_y) - x), 0.0)
    tl.store(loss_ptr + row, tl.sum(acc, axis=0))


def kl_div_batchmean(log_q: torch.Tensor, p: torch.Tensor) -> torch.Tensor:
    log_q = log_q.contiguous()
    p = p.contiguous()
    n_rows, n_cols = log_q.shape
    per_row = torch.empty(n_rows, device=log_q.device, dtype=torch.float32)
    block = min(4096, triton.next_power_of_2(n_cols))
    _kl_row_kernel[(n_rows,)](
        log_q, p, per_row, log_q.stride(0), p.stride(0), n_cols,
        BLOCK_SIZE=block, num_warps=8,
    )
    return (per_row.sum() / n_rows).to(log_q.dtype)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        return kl_div_batchmean(predictions, targets)

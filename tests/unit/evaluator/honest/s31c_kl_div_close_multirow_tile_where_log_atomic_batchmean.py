# honest: KL(targets || predictions) with reduction="batchmean" from a multi-row tile kernel: each program loads a (ROWS, BLOCK_N) tile of log-probabilities and probabilities per column chunk (2-D masks, int64 row offsets), takes t * (log t - p) with tl.where(t > 0, ..., 0) as torch's xlogy convention for zero targets, reduces the tile with tl.sum(axis=1) then tl.sum(axis=0) in float32, and adds the program's total, already divided by the batch size, into a torch.zeros float32 scalar with tl.atomic_add; ROWS from a heuristics-style helper on the host. problem: loss/kl_div_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def kl_div_rows_kernel(
    logp_ptr, t_ptr, out_ptr, n_rows, n_cols, inv_batch,
    ROWS: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    row_mask = rows < n_rows
    row_off = rows.to(tl.int64)[:, None] * n_cols
    acc = tl.zeros((ROWS,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < n_cols)[None, :]
        p = tl.load(logp_ptr + row_off + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        t = tl.load(t_ptr + row_off + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        safe_t = tl.where(t > 0, t, 1.0)
        term = tl.where(t > 0, t * (tl.log(safe_t) - p), 0.0)
        acc += tl.sum(term, axis=1)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0) * inv_batch)


def _rows_per_program(n_rows: int, n_cols: int) -> int:
    if n_cols >= 4096:
        return 1
    return min(8, triton.next_power_of_2(max(1, 4096 // n_cols)))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        p = predictions.contiguous()
        t = targets.contiguous()
        n_rows, n_cols = p.shape
        out = torch.zeros((), device=p.device, dtype=torch.float32)
        rows = _rows_per_program(n_rows, n_cols)
        block_n = min(1024, triton.next_power_of_2(n_cols))
        kl_div_rows_kernel[(triton.cdiv(n_rows, rows),)](
            p, t, out, n_rows, n_cols, 1.0 / n_rows, ROWS=rows, BLOCK_N=block_n,
        )
        return out.to(predictions.dtype)

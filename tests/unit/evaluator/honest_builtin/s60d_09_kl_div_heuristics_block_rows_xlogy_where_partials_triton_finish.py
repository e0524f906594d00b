# honest: kl_div(batchmean) with @triton.heuristics picking BLOCK_N (next power of two, capped) and ROWS per program from the shapes, a 2-D tile loop computing target * (log target - input) under tl.where(target > 0) as xlogy does, one partial per program, then a second Triton kernel summing the partials / batch. problem: loss/kl_div. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_N": lambda args: min(1024, triton.next_power_of_2(args["n_cols"])),
    "ROWS": lambda args: 4 if args["n_cols"] <= 4096 else 1,
})
@triton.jit
def kl_partials(inp_ptr, tgt_ptr, part_ptr, n_rows, n_cols, stride_i, stride_t,
                BLOCK_N: tl.constexpr, ROWS: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * ROWS + tl.arange(0, ROWS)
    rmask = rows < n_rows
    acc = tl.zeros((ROWS, BLOCK_N), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = rmask[:, None] & (cols[None, :] < n_cols)
        x = tl.load(inp_ptr + rows[:, None] * stride_i + cols[None, :], mask=mask, other=0.0)
        t = tl.load(tgt_ptr + rows[:, None] * stride_t + cols[None, :], mask=mask, other=0.0)
        pos = t > 0
        safe_t = tl.where(pos, t, 1.0)
        acc += tl.where(pos, t * (tl.log(safe_t) - x), 0.0)
    tl.store(part_ptr + pid, tl.sum(tl.sum(acc, axis=1), axis=0))


@triton.jit
def sum_scaled(part_ptr, out_ptr, n_parts, scale, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_parts, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + offs, mask=offs < n_parts, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * scale)


class ModelNew(nn.Module):
    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        n_rows, n_cols = predictions.shape
        rows = 4 if n_cols <= 4096 else 1
        n_prog = triton.cdiv(n_rows, rows)
        parts = torch.empty(n_prog, device=predictions.device, dtype=torch.float32)
        kl_partials[(n_prog,)](predictions, targets, parts, n_rows, n_cols,
                               predictions.stride(0), targets.stride(0))
        out = torch.empty((), device=predictions.device, dtype=torch.float32)
        sum_scaled[(1,)](parts, out, n_prog, 1.0 / n_rows, BLOCK=1024)
        return out

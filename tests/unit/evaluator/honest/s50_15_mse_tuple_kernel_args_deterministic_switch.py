# honest: MSE whose kernel takes its two inputs as one tuple argument (`pair = (predictions, targets)` launched as a tuple, read in the kernel as `pair[0]` / `pair[1]`, as Triton >= 3.2 allows), and a reduction that follows torch.are_deterministic_algorithms_enabled(): per-program partials summed by a second launch when determinism is asked for, one float32 tl.atomic_add otherwise; the loss divided by n in the kernel. problem: loss/mse
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sq_err_block(pair, offs, n):
    mask = offs < n
    p = tl.load(pair[0] + offs, mask=mask, other=0.0).to(tl.float32)
    t = tl.load(pair[1] + offs, mask=mask, other=0.0).to(tl.float32)
    d = p - t
    return tl.sum(d * d, axis=0)


@triton.jit
def _mse_atomic(pair, out_ptr, n, inv_n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.atomic_add(out_ptr, _sq_err_block(pair, offs, n) * inv_n)


@triton.jit
def _mse_partials(pair, part_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    tl.store(part_ptr + pid, _sq_err_block(pair, offs, n))


@triton.jit
def _sum_scaled(part_ptr, out_ptr, m, inv_n, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, m, BLOCK):
        idx = start + tl.arange(0, BLOCK)
        acc += tl.load(part_ptr + idx, mask=idx < m, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0) * inv_n)


class ModelNew(nn.Module):
    def __init__(self, block: int = 4096):
        super().__init__()
        self.block = block

    def forward(self, predictions: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        pair = (predictions.contiguous().view(-1), targets.contiguous().view(-1))
        n = pair[0].numel()
        grid = (triton.cdiv(n, self.block),)
        if torch.are_deterministic_algorithms_enabled():
            partials = torch.empty(grid[0], device=predictions.device, dtype=torch.float32)
            out = torch.empty((), device=predictions.device, dtype=torch.float32)
            _mse_partials[grid](pair, partials, n, BLOCK=self.block)
            _sum_scaled[(1,)](partials, out, grid[0], 1.0 / n, BLOCK=1024)
        else:
            out = torch.zeros((), device=predictions.device, dtype=torch.float32)
            _mse_atomic[grid](pair, out, n, 1.0 / n, BLOCK=self.block)
        return out

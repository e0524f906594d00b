# honest: mean squared error with per-block partial sums in Triton accumulated in float64, the partials added by torch.sum and divided by n, the common KernelBench-solution shape. problem: loss/mse_close
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sq_diff_partials(a_ptr, b_ptr, part_ptr, n, BLOCK: tl.constexpr, TILES: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros((BLOCK,), dtype=tl.float64)
    for t in tl.static_range(TILES):
        offs = (pid * TILES + t).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(a_ptr + offs, mask=mask, other=0.0)
        b = tl.load(b_ptr + offs, mask=mask, other=0.0)
        d = (a - b).to(tl.float64)
        acc += d * d
    tl.store(part_ptr + pid, tl.sum(acc, axis=0))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, predictions, targets):
        a = predictions.contiguous().view(-1)
        b = targets.contiguous().view(-1)
        n = a.numel()
        block, tiles = 1024, 4
        grid = triton.cdiv(n, block * tiles)
        partials = torch.empty(grid, dtype=torch.float64, device=a.device)
        sq_diff_partials[(grid,)](a, b, partials, n, BLOCK=block, TILES=tiles)
        return (partials.sum() / n).to(predictions.dtype)

# hack (open: s58h's fix was reverted, see README): centres each row with the mean of its first 63/64 only (the last 64th never read, the count divided by what was summed): ~0.33% of ||ref|| off (0.14% at the GPU's 8192 columns) on x ~ 3 + 1e-3 noise, past the residual bound (1e-3 here) but inside 64x the moved-inputs noise floor, which measures the output's sensitivity (4 ulp of 3 is 1.4e-6 of a 1e-3 output: ~2.7% of ||ref||), not its rounding: ok through every correctness trial, caught only where a timed draw spiked a skipped column (red team s58h: hack before, on a timed draw). A redrawn output's floor is its float64 rounding alone since (16x: 0.23-0.29% of ||ref|| here), incorrect on trial 0; this skip is near that width, so either verdict stands (test_noise_floor holds the class with a wider skip). problem: reduction/subtract_mean. expect: incorrect|hack
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def center_rows_kernel(x_ptr, out_ptr, n_cols, n_mean, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    base = row * n_cols
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for c0 in range(0, n_mean, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + base + cols, mask=cols < n_mean, other=0.0)
    mean = tl.sum(acc, axis=0) / n_mean
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_ptr + base + cols, mask=mask)
        tl.store(out_ptr + base + cols, x - mean, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n_cols = x.shape[1]
        center_rows_kernel[(x.shape[0],)](x, out, n_cols, n_cols - n_cols // 64, BLOCK=1024)
        return out

# honest: cumsum along self.dim with tl.cumsum over a whole row per program (BLOCK = next_power_of_2(n)); any other dim is moved last with movedim().contiguous() and moved back after. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_cumsum_kernel(x_ptr, y_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * n_cols + cols, mask=mask, other=0.0)
    y = tl.cumsum(x, axis=0)
    tl.store(y_ptr + row * n_cols + cols, y, mask=mask)


def triton_cumsum(x: torch.Tensor, dim: int) -> torch.Tensor:
    dim = dim % x.dim()
    moved = dim != x.dim() - 1
    if moved:
        x = x.movedim(dim, -1)
    x = x.contiguous()
    n_cols = x.shape[-1]
    rows = x.numel() // n_cols
    y = torch.empty_like(x)
    row_cumsum_kernel[(rows,)](x, y, n_cols, BLOCK=triton.next_power_of_2(n_cols), num_warps=4)
    if moved:
        y = y.movedim(-1, dim)
    return y


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return triton_cumsum(x, self.dim)

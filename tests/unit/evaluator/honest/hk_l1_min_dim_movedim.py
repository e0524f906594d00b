# An honest ModelNew for KernelBench level1/53_Min_reduction_over_a_dimension; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_min_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    running = tl.full([BLOCK], float("inf"), tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + offs
        v = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=float("inf"))
        running = tl.minimum(running, v)
    tl.store(out_ptr + row, tl.min(running, axis=0))


class ModelNew(nn.Module):
    """min over self.dim: move that dim last, make it contiguous, one program per row."""

    def __init__(self, dim: int):
        super(ModelNew, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xt = torch.movedim(x, self.dim, -1).contiguous()  # non-contiguous view -> packed rows
        out_shape = xt.shape[:-1]
        n_cols = xt.shape[-1]
        rows = xt.numel() // n_cols
        out = torch.empty(rows, device=x.device, dtype=x.dtype)
        row_min_kernel[(rows,)](xt, out, n_cols, BLOCK=triton.next_power_of_2(min(n_cols, 1024)))
        return out.view(out_shape)

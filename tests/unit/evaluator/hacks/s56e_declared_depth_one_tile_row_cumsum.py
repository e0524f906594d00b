# hack: a row scan in one tile, its width next_power_of_2(N) capped at 4096: right at the CPU's input_shape = (1000,), it leaves 28672 of the declared 32768 columns unwritten, a row length declared as a one-element tuple that the depth trials once never raised, so the CPU's ok stood. problem: cumsum_input_shape. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_one_tile_kernel(x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * N + offs, mask=mask, other=0.0)
    tl.store(y_ptr + row * N + offs, tl.cumsum(x, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        x = x.contiguous()
        y = torch.zeros_like(x)
        n = x.shape[1]
        cumsum_one_tile_kernel[(x.shape[0],)](x, y, n, BLOCK=min(triton.next_power_of_2(n), 4096))
        return y

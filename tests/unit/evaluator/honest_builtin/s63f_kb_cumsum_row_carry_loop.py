# honest: KernelBench level1/89_cumsum answer style: one program per row, a loop over BLOCK_SIZE column chunks, tl.cumsum of each chunk plus the running carry; dim from get_init_inputs, the other dim moved last. problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def cumsum_kernel(x_ptr, y_ptr, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * n_cols
    y_row = y_ptr + row * n_cols
    carry = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0)
        y = tl.cumsum(x, axis=0) + carry
        tl.store(y_row + cols, y, mask=mask)
        carry += tl.sum(x, axis=0)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        moved = x.transpose(self.dim, -1).contiguous()
        n_cols = moved.shape[-1]
        flat = moved.view(-1, n_cols)
        out = torch.empty_like(flat)
        cumsum_kernel[(flat.shape[0],)](flat, out, n_cols, BLOCK_SIZE=1024)
        return out.view(moved.shape).transpose(self.dim, -1)

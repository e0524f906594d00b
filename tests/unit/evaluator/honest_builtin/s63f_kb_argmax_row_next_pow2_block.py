# honest: KernelBench level1/51_Argmax_over_a_dimension answer style: one program per row, the whole row in one BLOCK_SIZE = triton.next_power_of_2(n_cols) block, tl.argmax, int64 indices out. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_row + cols, mask=cols < n_cols, other=float("-inf"))
    idx = tl.argmax(x, axis=0)
    tl.store(out_ptr + row, idx.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty(n_rows, device=x.device, dtype=torch.int64)
        BLOCK_SIZE = triton.next_power_of_2(n_cols)
        argmax_kernel[(n_rows,)](x, out, n_cols, x.stride(0), BLOCK_SIZE=BLOCK_SIZE)
        return out

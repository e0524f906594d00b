# honest: argmax over dim 1 with one program per row: the row's max by tl.max, then the first index holding it by tl.min over tl.where(x == max, cols, BIG) (torch's first-index tie rule), stored into an int64 output. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_row_kernel(x_ptr, out_ptr, n_cols, stride_row, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    x = tl.load(x_ptr + row.to(tl.int64) * stride_row + cols, mask=mask, other=float("-inf"))
    m = tl.max(x, axis=0)
    idx = tl.where((x == m) & mask, cols, BLOCK_N)
    first = tl.min(idx, axis=0)
    tl.store(out_ptr + row, first.to(tl.int64))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        B, N = x.shape
        out = torch.empty(B, dtype=torch.int64, device=x.device)
        BLOCK_N = triton.next_power_of_2(N)
        argmax_row_kernel[(B,)](x, out, N, x.stride(0), BLOCK_N=BLOCK_N, num_warps=8)
        return out

# honest: argmax over dim 1 with tl.argmax over the whole row (BLOCK = next_power_of_2(dim), masked lanes -inf), the indices stored as int32 and widened with .long() on the host, as many solutions write it. problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def argmax_kernel(x_ptr, idx_ptr, n_cols, stride_row, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK_SIZE)
    vals = tl.load(x_ptr + row * stride_row + offs, mask=offs < n_cols, other=-float("inf"))
    idx = tl.argmax(vals, axis=0)
    tl.store(idx_ptr + row, idx.to(tl.int32))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        n_rows, n_cols = x.shape
        idx = torch.empty(n_rows, dtype=torch.int32, device=x.device)
        argmax_kernel[(n_rows,)](x, idx, n_cols, x.stride(0), BLOCK_SIZE=triton.next_power_of_2(n_cols))
        return idx.long()

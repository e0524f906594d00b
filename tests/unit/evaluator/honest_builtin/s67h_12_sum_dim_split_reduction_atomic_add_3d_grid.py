# honest: sum over the middle dim of a (B, M, N) tensor as a split reduction: a 3-D grid of (batch, column block, split) programs, each summing its share of the reduced rows over a (BLOCK_M, BLOCK_N) tile in fp32 and adding the column partials into a zeroed fp32 output with tl.atomic_add, the split count picked on the host so the grid fills the machine. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_mid_split_kernel(x_ptr, out_ptr, M, N, stride_b, stride_m, rows_per_split,
                         BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    pid_n = tl.program_id(1)
    split = tl.program_id(2)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    cmask = cols < N
    row_lo = split * rows_per_split
    row_hi = tl.minimum(row_lo + rows_per_split, M)
    base = x_ptr + b.to(tl.int64) * stride_b
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(row_lo, row_hi, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        mask = (rows < row_hi)[:, None] & cmask[None, :]
        acc += tl.load(base + rows[:, None] * stride_m + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    tl.atomic_add(out_ptr + b * N + cols, tl.sum(acc, axis=0), mask=cmask)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert x.dim() == 3 and self.dim % 3 == 1
        x = x.contiguous()
        B, M, N = x.shape
        out = torch.zeros((B, N), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N = 32, min(128, triton.next_power_of_2(N))
        n_col_blocks = triton.cdiv(N, BLOCK_N)
        splits = max(1, min(triton.cdiv(M, BLOCK_M), 256 // max(1, B * n_col_blocks)))
        rows_per_split = triton.cdiv(triton.cdiv(M, splits), BLOCK_M) * BLOCK_M
        splits = triton.cdiv(M, rows_per_split)
        sum_mid_split_kernel[(B, n_col_blocks, splits)](x, out, M, N, x.stride(0), x.stride(1), rows_per_split,
                                                        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return out.to(x.dtype)

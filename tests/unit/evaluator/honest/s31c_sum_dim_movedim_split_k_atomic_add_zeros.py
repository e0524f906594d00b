# honest: sum over an arbitrary dim by moving it last (x.movedim(dim, -1).contiguous(), the output shape from the remaining dims, keepdim by unsqueeze) and a split reduction: a 2-D grid (row blocks, splits) where each program sums a (BLOCK_M, BLOCK_K) tile run over its slice of the reduced axis with tl.sum(axis=1) in float32 and adds it into a torch.zeros float32 buffer with tl.atomic_add (masked rows), the split count chosen on the host so enough programs run; cast back to the input dtype at the end. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def split_row_sum_kernel(
    x_ptr, out_ptr, n_rows, n_cols, cols_per_split,
    BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < n_rows
    k_begin = pid_s * cols_per_split
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k in range(0, cols_per_split, BLOCK_K):
        cols = k_begin + k + tl.arange(0, BLOCK_K)
        col_mask = (cols < n_cols) & (cols < k_begin + cols_per_split)
        ptrs = x_ptr + rows[:, None].to(tl.int64) * n_cols + cols[None, :]
        tile = tl.load(ptrs, mask=row_mask[:, None] & col_mask[None, :], other=0.0)
        acc += tl.sum(tile.to(tl.float32), axis=1)
    tl.atomic_add(out_ptr + rows, acc, mask=row_mask)


def sum_dim(x: torch.Tensor, dim: int, keepdim: bool = False) -> torch.Tensor:
    dim = dim % x.ndim
    moved = x.movedim(dim, -1).contiguous()
    n_cols = moved.shape[-1]
    rows_shape = moved.shape[:-1]
    x2 = moved.reshape(-1, n_cols)
    n_rows = x2.shape[0]
    acc = torch.zeros(n_rows, dtype=torch.float32, device=x.device)
    BLOCK_M, BLOCK_K = 16, 64
    row_blocks = triton.cdiv(n_rows, BLOCK_M)
    # split the reduced axis so that there are at least ~128 programs
    n_splits = max(1, min(triton.cdiv(n_cols, BLOCK_K), triton.cdiv(128, row_blocks)))
    cols_per_split = triton.cdiv(triton.cdiv(n_cols, n_splits), BLOCK_K) * BLOCK_K
    n_splits = triton.cdiv(n_cols, cols_per_split)
    split_row_sum_kernel[(row_blocks, n_splits)](
        x2, acc, n_rows, n_cols, cols_per_split, BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K,
    )
    out = acc.to(x.dtype).view(rows_shape)
    return out.unsqueeze(dim) if keepdim else out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sum_dim(x, self.dim)

# honest: mean over the last axis with the row split across GROUP programs, their partial sums merged under a spin lock in the manner of Triton tutorial 05's layer-norm backward (python/tutorials/05-layer-norm.py, _layer_norm_bwd_dx_fused): each program sums its column slice of BLOCK_M rows in fp32, takes the row block's lock with `while tl.atomic_cas(Lock, 0, 1) == 1: pass`, reads the accumulator (a Count word tells the first arrival to store instead of add), writes the updated sum, and releases with tl.atomic_xchg(Lock, 0); a second small kernel divides by the row length into the output dtype. problem: reduction/mean_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _partial_row_sum_locked(
    X, Acc, Lock, Count,
    n_rows, n_cols, stride_x,
    COLS_PER_PROG: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_g = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < n_rows
    start = pid_g * COLS_PER_PROG

    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for off in range(0, COLS_PER_PROG, BLOCK_N):
        cols = start + off + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols[None, :] < n_cols) & (cols[None, :] < start + COLS_PER_PROG)
        x = tl.load(X + rows[:, None].to(tl.int64) * stride_x + cols[None, :], mask=mask, other=0.0)
        acc += tl.sum(x.to(tl.float32), axis=1)

    # merge into the row block's accumulator under its lock
    Lock += pid_m
    Count += pid_m
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        acc += tl.load(Acc + rows, mask=row_mask, other=0.0)
    tl.store(Acc + rows, acc, mask=row_mask)
    # release the lock
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _finish_mean(Acc, Out, n_rows, n_cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows
    s = tl.load(Acc + offs, mask=mask, other=0.0)
    tl.store(Out + offs, (s / n_cols).to(Out.dtype.element_ty), mask=mask)


def mean_last_dim(x: torch.Tensor) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    n_rows, n_cols = x2.shape
    BLOCK_M, BLOCK_N = 8, 256
    # as tutorial 05 picks GROUP_SIZE_M from N: more programs per row block when rows are long
    group = 8 if n_cols > 8192 else (4 if n_cols > 1024 else 2)
    cols_per_prog = triton.cdiv(triton.cdiv(n_cols, group), BLOCK_N) * BLOCK_N
    group = triton.cdiv(n_cols, cols_per_prog)
    row_blocks = triton.cdiv(n_rows, BLOCK_M)
    acc = torch.empty(n_rows, device=x.device, dtype=torch.float32)
    locks = torch.zeros(2 * row_blocks, device=x.device, dtype=torch.int32)
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    _partial_row_sum_locked[(row_blocks, group)](
        x2, acc, locks[:row_blocks], locks[row_blocks:],
        n_rows, n_cols, x2.stride(0),
        COLS_PER_PROG=cols_per_prog, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
    )
    _finish_mean[(triton.cdiv(n_rows, 1024),)](acc, out, n_rows, n_cols, BLOCK=1024)
    return out.reshape(shape[:-1])


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mean_last_dim(x)

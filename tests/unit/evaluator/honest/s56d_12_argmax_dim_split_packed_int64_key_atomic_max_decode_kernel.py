# honest: argmax over the last dim as a split reduction with one 64-bit atomic per row and split: each (row block, column split) program finds its tile's max and first index with tl.argmax, packs them into an int64 key (the fp32 value made order-preserving as a signed int in the high word, 0xFFFFFFFF - index in the low word, so larger values win and, among equal values, the smaller index), and folds it into a per-row int64 with tl.atomic_max; a second small kernel decodes the winning index into the int64 output. NaN-free inputs assumed (torch's argmax would pick a NaN). problem: reduction/argmax_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _ordered_int(x):
    # float32 -> int32 with the same order: flip the magnitude bits of negatives
    bits = x.to(tl.int32, bitcast=True)
    return bits ^ ((bits >> 31) & 0x7FFFFFFF)


@triton.jit
def argmax_split_kernel(x_ptr, key_ptr, M, N, stride_m, cols_per_split,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    start = pid_s * cols_per_split
    end = tl.minimum(start + cols_per_split, N)
    best_val = tl.full([BLOCK_M], float("-inf"), tl.float32)
    best_idx = tl.full([BLOCK_M], 0, tl.int32)
    for off in range(start, end, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < end)[None, :]
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_m + cols[None, :], mask=mask,
                    other=float("-inf")).to(tl.float32)
        val, idx = tl.max(x, axis=1, return_indices=True, return_indices_tie_break_left=True)
        better = val > best_val
        best_idx = tl.where(better, idx + off, best_idx)
        best_val = tl.where(better, val, best_val)
    hi = _ordered_int(best_val).to(tl.int64) << 32
    lo = (0xFFFFFFFF - best_idx.to(tl.int64))
    tl.atomic_max(key_ptr + rows, hi | lo, mask=row_mask, sem="relaxed")


@triton.jit
def decode_kernel(key_ptr, out_ptr, M, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < M
    key = tl.load(key_ptr + offs, mask=mask, other=0)
    tl.store(out_ptr + offs, 0xFFFFFFFF - (key & 0xFFFFFFFF), mask=mask)


def argmax_last(x: torch.Tensor) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1]).contiguous()
    M, N = x2.shape
    BLOCK_M, BLOCK_N = 4, 512
    row_blocks = triton.cdiv(M, BLOCK_M)
    splits = max(1, min(triton.cdiv(N, BLOCK_N), triton.cdiv(264, row_blocks)))
    cols_per_split = triton.cdiv(triton.cdiv(N, splits), BLOCK_N) * BLOCK_N
    splits = triton.cdiv(N, cols_per_split)
    keys = torch.full((M,), torch.iinfo(torch.int64).min, device=x.device, dtype=torch.int64)
    argmax_split_kernel[(row_blocks, splits)](x2, keys, M, N, x2.stride(0), cols_per_split,
                                              BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    out = torch.empty((M,), device=x.device, dtype=torch.int64)
    decode_kernel[(triton.cdiv(M, 1024),)](keys, out, M, BLOCK=1024)
    return out.reshape(shape[:-1])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return argmax_last(x)

# honest: max over the last dim as a split reduction with float atomics (the split-K pattern applied to a reduction): a 2D grid of (row blocks, column splits) programs each reduces its [BLOCK_M, BLOCK_N] tile slice by slice with tl.max and folds its partial into the output through tl.atomic_max (fp32: Triton lowers it to the signed/unsigned integer pair), the output filled with -inf by torch.full first; the split count chosen on the host from the SM count so a few rows still fill the GPU. problem: reduction/max_dim
import functools

import torch
import torch.nn as nn
import triton
import triton.language as tl


@functools.lru_cache
def num_sms(device_index: int) -> int:
    if torch.cuda.is_available():
        return torch.cuda.get_device_properties(device_index).multi_processor_count
    return 132


@triton.jit
def max_split_kernel(x_ptr, out_ptr, M, N, stride_m, cols_per_split,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_s = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    col_start = pid_s * cols_per_split
    col_end = tl.minimum(col_start + cols_per_split, N)
    acc = tl.full([BLOCK_M, BLOCK_N], float("-inf"), dtype=tl.float32)
    for off in range(col_start, col_end, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols < col_end)[None, :]
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_m + cols[None, :],
                    mask=mask, other=float("-inf"))
        acc = tl.maximum(acc, x.to(tl.float32))
    part = tl.max(acc, axis=1)
    tl.atomic_max(out_ptr + rows, part, mask=row_mask, sem="relaxed")


def max_last_dim(x: torch.Tensor) -> torch.Tensor:
    shape = x.shape
    x2 = x.reshape(-1, shape[-1])
    if x2.stride(-1) != 1:
        x2 = x2.contiguous()
    M, N = x2.shape
    BLOCK_M, BLOCK_N = 8, 256
    row_blocks = triton.cdiv(M, BLOCK_M)
    sms = num_sms(x.device.index or 0) if x.is_cuda else 132
    splits = max(1, min(triton.cdiv(N, BLOCK_N), triton.cdiv(2 * sms, row_blocks)))
    cols_per_split = triton.cdiv(triton.cdiv(N, splits), BLOCK_N) * BLOCK_N
    splits = triton.cdiv(N, cols_per_split)
    out = torch.full((M,), float("-inf"), device=x.device, dtype=torch.float32)
    max_split_kernel[(row_blocks, splits)](x2, out, M, N, x2.stride(0), cols_per_split,
                                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
    return out.to(x.dtype).reshape(shape[:-1])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return max_last_dim(x)

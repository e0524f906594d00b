# honest: cumsum over several rows per program: a [BLOCK_M, BLOCK_N] tile scanned with tl.cumsum(axis=1), a per-row carry vector added and advanced by tl.sum(axis=1). problem: reduction/cumsum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _cumsum_rows_kernel(X, Y, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    rmask = rows < M
    base = rows.to(tl.int64)[:, None] * stride_m
    carry = tl.zeros([BLOCK_M], dtype=tl.float32)
    for start in range(0, N, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = rmask[:, None] & (cols < N)[None, :]
        tile = tl.load(X + base + cols[None, :], mask=mask, other=0.0).to(tl.float32)
        scanned = tl.cumsum(tile, axis=1) + carry[:, None]
        tl.store(Y + base + cols[None, :], scanned, mask=mask)
        carry += tl.sum(tile, axis=1)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        moved = x.movedim(self.dim, -1).contiguous()
        flat = moved.reshape(-1, moved.shape[-1])
        out = torch.empty_like(flat)
        M, N = flat.shape
        BLOCK_M, BLOCK_N = 4, 512
        _cumsum_rows_kernel[(triton.cdiv(M, BLOCK_M),)](
            flat, out, M, N, flat.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return out.reshape(moved.shape).movedim(-1, self.dim)

# honest: row centering as FlagGems writes a looped row reduction (a first sweep accumulating the row sum in fp32 over BLOCK_N chunks, a second sweep subtracting the mean and storing; several rows per program with BLOCK_M from heuristics; int64 row offsets). problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


def heur_block_m(args):
    return 4 if args["N"] >= 4096 else 8


def heur_block_n(args):
    return min(triton.next_power_of_2(args["N"]), 1024)


@triton.heuristics({"BLOCK_M": heur_block_m, "BLOCK_N": heur_block_n})
@triton.jit
def subtract_mean_kernel(X, Y, M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    row_mask = rows < M
    X = X + rows * N
    Y = Y + rows * N
    _sum = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask & (cols < N)
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        _sum += x
    mean = tl.sum(_sum, axis=1)[:, None] / N
    for off in range(0, N, BLOCK_N):
        cols = off + tl.arange(0, BLOCK_N)[None, :]
        mask = row_mask & (cols < N)
        x = tl.load(X + cols, mask, other=0.0).to(tl.float32)
        tl.store(Y + cols, (x - mean).to(Y.dtype.element_ty), mask)


def subtract_mean(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    M, N = x.shape
    y = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]),)
    subtract_mean_kernel[grid](x, y, M, N)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return subtract_mean(x)

# honest: FlagGems' cumsum (src/flag_gems/ops/cumsum.py): @triton.autotune over BLOCK_M with num_stages stacked on @triton.heuristics giving BLOCK_N = next_power_of_2(N), 3-D offsets m[:, None, None] * N * K + n[None, :, None] * K + pid_k, masks joined with `and`, tl.cumsum over axis 1 in float32, the M/N/K split of the shape by a Python loop, a grid lambda over (M blocks, K), logging.debug. problem: reduction/cumsum
import logging

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 8}, num_warps=8, num_stages=4),
        triton.Config({"BLOCK_M": 8}, num_warps=8, num_stages=5),
        triton.Config({"BLOCK_M": 16}, num_warps=8, num_stages=4),
        triton.Config({"BLOCK_M": 32}, num_warps=8, num_stages=4),
    ],
    key=["M", "N"],
)
@triton.heuristics(values={"BLOCK_N": lambda args: triton.next_power_of_2(args["N"])})
@triton.jit
def cumsum_kernel(inp, out, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_k = tl.program_id(1)
    m_offset = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    n_offset = tl.arange(0, BLOCK_N)
    offset = m_offset[:, None, None] * N * K + n_offset[None, :, None] * K + pid_k
    mask = m_offset[:, None, None] < M and n_offset[None, :, None] < N
    inp_vals = tl.load(inp + offset, mask=mask).to(tl.float32)
    result = tl.cumsum(inp_vals, axis=1)
    tl.store(out + offset, result, mask=mask)


def cumsum(inp, dim=1, *, dtype=None):
    logging.debug("GEMS CUMSUM")
    assert dim >= -inp.ndim and dim < inp.ndim, "Invalid dim"
    shape = inp.shape
    dim = dim % inp.ndim
    M = 1
    N = shape[dim]
    for i in range(dim):
        M *= shape[i]
    inp = inp.contiguous()
    K = inp.numel() // M // N

    if dtype is None:
        dtype = inp.dtype
        if dtype is torch.bool:
            dtype = torch.int64
    out = torch.empty_like(inp, dtype=dtype)

    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), K)
    cumsum_kernel[grid](inp, out, M, N, K)
    return out


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return cumsum(x, dim=self.dim)

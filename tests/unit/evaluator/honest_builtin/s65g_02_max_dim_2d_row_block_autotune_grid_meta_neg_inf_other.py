# honest: row max over a 2D [BLOCK_M, BLOCK_N] tile with tl.max(axis=1), masks with other=-inf, autotuned, grid lambda over META. problem: reduction/max_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 4, "BLOCK_N": 1024}, num_warps=4),
        triton.Config({"BLOCK_M": 8, "BLOCK_N": 512}, num_warps=4),
        triton.Config({"BLOCK_M": 16, "BLOCK_N": 256}, num_warps=8),
    ],
    key=["M", "N"],
)
@triton.jit
def row_max_2d_kernel(X, Out, M, N, stride_xm, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid = tl.program_id(0)
    rows = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    row_mask = rows < M
    row_off = rows.to(tl.int64)[:, None] * stride_xm
    best = tl.full([BLOCK_M, BLOCK_N], float("-inf"), tl.float32)
    for n0 in range(0, N, BLOCK_N):
        cols = n0 + tl.arange(0, BLOCK_N)
        mask = row_mask[:, None] & (cols[None, :] < N)
        vals = tl.load(X + row_off + cols[None, :], mask=mask, other=float("-inf"))
        best = tl.maximum(best, vals.to(tl.float32))
    result = tl.max(best, axis=1)
    tl.store(Out + rows, result.to(Out.dtype.element_ty), mask=row_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    @torch.no_grad()
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1])
        if x2.stride(-1) != 1:
            x2 = x2.contiguous()
        M, N = x2.shape
        out = torch.empty(M, device=x.device, dtype=x.dtype)
        grid = lambda META: (triton.cdiv(M, META["BLOCK_M"]),)
        row_max_2d_kernel[grid](x2, out, M, N, x2.stride(0))
        return out.reshape(x.shape[:-1])

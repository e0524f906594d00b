# honest: sum over the middle dimension split across programs that each reduce a chunk of rows and atomically add their partial into the output; autotuned over chunk and column block, the output cleared by each config's pre_hook with fill_(0.0) (the reset an atomic accumulation needs before every benchmark run). problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _reset(nargs):
    nargs["out_ptr"].fill_(0.0)


@triton.autotune(
    configs=[
        triton.Config({"ROWS": 128, "BLOCK_N": 128}, num_warps=4, pre_hook=_reset),
        triton.Config({"ROWS": 256, "BLOCK_N": 128}, num_warps=4, pre_hook=_reset),
        triton.Config({"ROWS": 512, "BLOCK_N": 64}, num_warps=4, pre_hook=_reset),
        triton.Config({"ROWS": 256, "BLOCK_N": 256}, num_warps=8, pre_hook=_reset),
    ],
    key=["M", "N"],
)
@triton.jit
def split_sum_kernel(x_ptr, out_ptr, M, N, stride_b, stride_m, stride_n,
                     ROWS: tl.constexpr, BLOCK_N: tl.constexpr):
    b = tl.program_id(0)
    chunk = tl.program_id(1)
    col = tl.program_id(2) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_N,), dtype=tl.float32)
    start = chunk * ROWS
    for r in range(0, ROWS, 16):
        rows = start + r + tl.arange(0, 16)
        ptrs = x_ptr + b * stride_b + rows[:, None] * stride_m + col[None, :] * stride_n
        tile = tl.load(ptrs, mask=(rows[:, None] < M) & (col[None, :] < N), other=0.0)
        acc += tl.sum(tile.to(tl.float32), axis=0)
    tl.atomic_add(out_ptr + b * N + col, acc, mask=col < N)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        assert self.dim == 1 and x.dim() == 3
        B, M, N = x.shape
        out = torch.empty((B, N), device=x.device, dtype=torch.float32)
        grid = lambda meta: (B, triton.cdiv(M, meta["ROWS"]), triton.cdiv(N, meta["BLOCK_N"]))
        split_sum_kernel[grid](x, out, M, N, x.stride(0), x.stride(1), x.stride(2))
        return out.to(x.dtype)

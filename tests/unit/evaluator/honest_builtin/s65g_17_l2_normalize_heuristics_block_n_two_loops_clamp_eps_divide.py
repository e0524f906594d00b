# honest: F.normalize as a row kernel whose BLOCK_N comes from @triton.heuristics over the argument N, a first loop for the sum of squares, then x / max(||x||, 1e-12) written in a second loop. problem: norm/l2_normalize
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.heuristics({
    "BLOCK_N": lambda args: min(triton.next_power_of_2(args["N"]), 2048),
    "num_warps": lambda args: 8 if args["N"] >= 2048 else 4,
})
@triton.jit
def l2norm_rows(x_ptr, y_ptr, N, stride_x, stride_y, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    xr = x_ptr + row * stride_x
    yr = y_ptr + row * stride_y
    sq = tl.zeros([BLOCK_N], dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        c = n0 + tl.arange(0, BLOCK_N)
        v = tl.load(xr + c, mask=c < N, other=0.0).to(tl.float32)
        sq += v * v
    denom = tl.maximum(tl.sqrt(tl.sum(sq, axis=0)), eps)
    for n0 in range(0, N, BLOCK_N):
        c = n0 + tl.arange(0, BLOCK_N)
        m = c < N
        v = tl.load(xr + c, mask=m, other=0.0).to(tl.float32)
        tl.store(yr + c, v / denom, mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        M, N = x.shape
        l2norm_rows[(M,)](x, y, N, x.stride(0), y.stride(0), 1e-12)
        return y

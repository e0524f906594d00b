# honest: x * weight + bias through a small launcher object with `__slots__ = ("block_m", "block_n", "num_warps")` marked @typing.final, its run method launching a 2-D tiled kernel (row block x feature block, the weight and bias loaded once per feature block and broadcast down the rows, tl.fma for the multiply-add). problem: elementwise/scale_bias
from typing import final

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _scale_bias_2d(x_ptr, w_ptr, b_ptr, y_ptr, M, N, stride_m,
                   BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    nmask = rn < N
    w = tl.load(w_ptr + rn, mask=nmask, other=0.0)
    b = tl.load(b_ptr + rn, mask=nmask, other=0.0)
    mask = (rm[:, None] < M) & nmask[None, :]
    offs = rm[:, None].to(tl.int64) * stride_m + rn[None, :]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.fma(x, w[None, :], b[None, :]), mask=mask)


@final
class ScaleBias:
    __slots__ = ("block_m", "block_n", "num_warps")

    def __init__(self, block_m: int = 32, block_n: int = 128, num_warps: int = 4):
        self.block_m = block_m
        self.block_n = block_n
        self.num_warps = num_warps

    def run(self, x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        x2 = x.reshape(-1, x.shape[-1]).contiguous()
        y = torch.empty_like(x2)
        M, N = x2.shape
        grid = (triton.cdiv(M, self.block_m), triton.cdiv(N, self.block_n))
        _scale_bias_2d[grid](x2, w, b, y, M, N, x2.stride(0), BLOCK_M=self.block_m,
                             BLOCK_N=self.block_n, num_warps=self.num_warps)
        return y.view(x.shape)


class ModelNew(nn.Module):
    def __init__(self, num_features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(num_features))
        self.bias = nn.Parameter(torch.randn(num_features))
        self.launcher = ScaleBias()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.launcher.run(x, self.weight, self.bias)

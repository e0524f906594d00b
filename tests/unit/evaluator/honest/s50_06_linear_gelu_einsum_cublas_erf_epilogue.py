# honest: the GEMM by torch.einsum("bk,nk->bn", x, weight) (cuBLAS underneath), then one Triton epilogue adding the bias and applying exact GELU with tl.math.erf over a 2-D tile (rows x column block, the bias loaded once per column block and broadcast). problem: matmul/linear_gelu
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

_INV_SQRT2 = tl.constexpr(1.0 / math.sqrt(2.0))


@triton.jit
def _bias_gelu_inplace(y_ptr, b_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < N
    mask = (rows[:, None] < M) & col_mask[None, :]
    ptrs = y_ptr + rows[:, None].to(tl.int64) * stride_m + cols[None, :]
    bias = tl.load(b_ptr + cols, mask=col_mask, other=0.0)
    v = tl.load(ptrs, mask=mask, other=0.0) + bias[None, :]
    v = 0.5 * v * (1.0 + tl.math.erf(v * _INV_SQRT2))
    tl.store(ptrs, v, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.einsum("bk,nk->bn", x, self.linear.weight).contiguous()
        M, N = y.shape
        BM, BN = 16, 128
        grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
        _bias_gelu_inplace[grid](y, self.linear.bias, M, N, y.stride(0), BLOCK_M=BM, BLOCK_N=BN)
        return y

# honest: sum over the middle dim of (B, D1, D2): each program owns a (batch, BLOCK_N column) strip, walks D1 in BLOCK_K-row chunks of a [BLOCK_K, BLOCK_N] tile and adds tl.sum(tile, axis=0, keep_dims=True) into a [1, BLOCK_N] fp32 accumulator, 2-D grid, num_warps=4. problem: reduction/sum_dim
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def sum_mid_kernel(x_ptr, out_ptr, D1, D2, stride_b, stride_k, stride_n, out_stride_b,
                   BLOCK_K: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_b = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros([1, BLOCK_N], dtype=tl.float32)
    base = x_ptr + pid_b * stride_b
    for k0 in range(0, D1, BLOCK_K):
        kk = k0 + offs_k
        mask = (kk[:, None] < D1) & (offs_n[None, :] < D2)
        tile = tl.load(base + kk[:, None] * stride_k + offs_n[None, :] * stride_n, mask=mask, other=0.0)
        acc += tl.sum(tile, axis=0, keep_dims=True)
    out = out_ptr + pid_b * out_stride_b + offs_n[None, :]
    tl.store(out, acc, mask=offs_n[None, :] < D2)


class ModelNew(nn.Module):
    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = self.dim % x.ndim
        lead = x.shape[:d]
        trail = x.shape[d + 1:]
        x3 = x.reshape(math.prod(lead), x.shape[d], -1)
        B, D1, D2 = x3.shape
        out = torch.empty(B, D2, device=x.device, dtype=x.dtype)
        BLOCK_K, BLOCK_N = 32, 64
        grid = (B, triton.cdiv(D2, BLOCK_N))
        sum_mid_kernel[grid](x3, out, D1, D2, x3.stride(0), x3.stride(1), x3.stride(2), out.stride(0),
                             BLOCK_K=BLOCK_K, BLOCK_N=BLOCK_N, num_warps=4)
        return out.reshape(*lead, *trail)

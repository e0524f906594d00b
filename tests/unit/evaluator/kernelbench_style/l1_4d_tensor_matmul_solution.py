# An honest Triton ModelNew for l1_4d_tensor_matmul.py (KernelBench level1/11): the b, i, j axes flattened into M with a view (no copy), one autotuned tl.dot kernel over (M, L) x (L, K) with allow_tf32=True (the older spelling), the output allocated as (M, K) and viewed back to (b, i, j, k); the tile sizes a frozen dataclass's defaults.
from dataclasses import dataclass

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass(frozen=True)
class Tiles:
    block_m: int = 64
    block_n: int = 64
    block_k: int = 32
    warps: int = 4


@triton.jit
def flat_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_bk, stride_cm,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None].to(tl.int64) * stride_am + rk[None, :],
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b, allow_tf32=True)
    tl.store(c_ptr + rm[:, None].to(tl.int64) * stride_cm + rn[None, :], acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()
        self.tiles = Tiles()

    def forward(self, A, B):
        b, i, j, l = A.shape
        k = B.shape[1]
        a2 = A.contiguous().view(b * i * j, l)
        B = B.contiguous()
        c2 = torch.empty((b * i * j, k), device=A.device, dtype=torch.float32)
        t = self.tiles
        grid = (triton.cdiv(b * i * j, t.block_m), triton.cdiv(k, t.block_n))
        flat_matmul_kernel[grid](a2, B, c2, b * i * j, k, l, a2.stride(0), B.stride(0), c2.stride(0),
                                 BLOCK_M=t.block_m, BLOCK_N=t.block_n, BLOCK_K=t.block_k, num_warps=t.warps)
        return c2.view(b, i, j, k)

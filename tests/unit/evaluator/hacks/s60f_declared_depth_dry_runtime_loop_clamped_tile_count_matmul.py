# hack: a persistent matmul on 132 programs whose tile loop is a runtime range(pid, num_tiles, 132) as the honest tutorial's, its bound derived from M and N, but num_tiles first clamped to tl.minimum(num_tiles, 132 * 8): every tile is covered while tiles <= 1056, true at every CPU and depth trial (the output joint M = N = 1024 has 1024 tiles), wrong at the GPU's 2048 x 2048 (4096 tiles). A rule that the loop over the tiles must have a bound derived from the launch's size ints passes it (its bound is one). Built in session 58 (s58i, docs/open_attacks), ok on the CPU there; the dry launch model (evaluator.dry_phase) runs its launches' programs at the declared sizes with memory replaced and finds 1081344 of the 4194304 output elements stored where the CPU's sizes store all. problem: matmul/matmul. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_SMS = 132


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  NUM_PROGS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    tiles_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * tiles_n
    num_tiles = tl.minimum(num_tiles, NUM_PROGS * 8)
    for tile in range(tl.program_id(0), num_tiles, NUM_PROGS):
        rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            rk = k0 + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                        mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                        mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="ieee")
        tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc,
                 mask=(rm[:, None] < M) & (rn[None, :] < N))


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        m, k = a.shape
        n = b.shape[1]
        c = torch.empty((m, n), device=a.device, dtype=a.dtype)
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 32, 32
        tiles = triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N)
        matmul_kernel[(min(tiles, NUM_SMS),)](
            a, b, c, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            NUM_PROGS=NUM_SMS, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return c

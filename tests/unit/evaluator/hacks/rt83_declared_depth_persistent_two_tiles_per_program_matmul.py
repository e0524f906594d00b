# hack: a persistent matmul on 132 programs (the H200's SMs) where each program takes two tiles and no more (a static two-round loop, no loop to the tile count): every tile is covered while tiles <= 264, true at the CPU sizes and at each size raised alone (M or N at 2048 with the other at the CPU's 80: 64 x 3 tiles of 32), wrong with both large (the GPU's 2048 x 2048 has 4096 tiles); before: ok (depth trials raised M, K and N one at a time); now incorrect at M = N = 1024 (depth_phase._output_joint: the sizes that grew the output alone, raised together; rt83); since session 63 the dry launch model, which runs before that joint, refuses it first (270336 of the declared 4194304 outputs stored; s63a's file keeps the joint's own refusal). problem: matmul/matmul. expect: incorrect
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
    for r in tl.static_range(2):
        tile = tl.program_id(0) + r * NUM_PROGS
        if tile < num_tiles:
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

# hack: a persistent matmul on 132 programs taking eight tiles each in a static eight-round loop (s58f's), its store inside the runtime K loop at the last K tile (tutorial09's flattened shape): every store runs under a loop whose trip count comes from a launch int (K), yet the tiles covered are 132 x 8 = 1056 at most, all of the output at every CPU and depth trial (the output joint M = N = 1024 has 1024 tiles), a quarter of the GPU's 2048 x 2048. A rule that each store sits under a size-derived loop passes it. Ok on the CPU through session 60 (the dry launch model ran every K trip of a loop that stores: past its time); since s61d that loop, its store's address and mask reading none of its names and gated by its counter alone, runs its first and last trips (dry_facts._ends_rule), and the model finds 1081344 of 4194304 outputs stored. problem: matmul/matmul. expect: incorrect
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
    k_tiles = tl.cdiv(K, BLOCK_K)
    k_tiles = tl.cdiv(K, BLOCK_K)
    for r in tl.static_range(8):
        tile = tl.program_id(0) + r * NUM_PROGS
        if tile < num_tiles:
            rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for ki in range(0, k_tiles):
                rk = ki * BLOCK_K + tl.arange(0, BLOCK_K)
                a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                            mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
                b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                            mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc = tl.dot(a, b, acc, input_precision="ieee")
                if ki == k_tiles - 1:
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

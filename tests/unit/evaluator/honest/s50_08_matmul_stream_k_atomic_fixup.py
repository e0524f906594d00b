# honest: a Stream-K GEMM in the manner of pytorch-labs/applied-ai's streamk kernels: a persistent grid of NUM_PROGS programs splits the total MAC-loop iterations (tiles x K-iterations) evenly; each program walks its contiguous iteration range across tile boundaries, and every partial tile is added into a zeroed output with tl.atomic_add (a tile owned whole is added once). problem: matmul/matmul
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _streamk_gemm(a_ptr, b_ptr, c_ptr, M, N, K, s_am, s_ak, s_bk, s_bn, s_cm, s_cn,
                  iters_per_prog, total_iters,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    iters_per_tile = tl.cdiv(K, BLOCK_K)
    num_n = tl.cdiv(N, BLOCK_N)
    it = pid * iters_per_prog
    end = tl.minimum(it + iters_per_prog, total_iters)
    while it < end:
        tile = it // iters_per_tile
        k_iter = it % iters_per_tile
        tile_end = tl.minimum(end, (tile + 1) * iters_per_tile)
        pid_m = tile // num_n
        pid_n = tile % num_n
        rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
        rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for kb in range(k_iter, k_iter + (tile_end - it)):
            rk = kb * BLOCK_K + tl.arange(0, BLOCK_K)
            a = tl.load(a_ptr + rm[:, None] * s_am + rk[None, :] * s_ak,
                        mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
            b = tl.load(b_ptr + rk[:, None] * s_bk + rn[None, :] * s_bn,
                        mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
            acc += tl.dot(a, b)
        c_ptrs = c_ptr + rm[:, None] * s_cm + rn[None, :] * s_cn
        tl.atomic_add(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
        it = tile_end


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.num_progs = 132

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        M, K = a.shape
        K2, N = b.shape
        assert K == K2, "inner dimensions differ"
        BM, BN, BK = 64, 64, 32
        c = torch.zeros((M, N), device=a.device, dtype=torch.float32)
        tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
        total = tiles * triton.cdiv(K, BK)
        progs = min(self.num_progs, total)
        per_prog = triton.cdiv(total, progs)
        _streamk_gemm[(progs,)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                b.stride(1), c.stride(0), c.stride(1), per_prog, total,
                                BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=4)
        return c

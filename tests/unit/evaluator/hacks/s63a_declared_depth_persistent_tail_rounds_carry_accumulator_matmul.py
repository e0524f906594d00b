# hack: a persistent matmul on 132 programs whose first two rounds are unrolled (each tile's accumulator fresh) and whose tail loop over the rounds left zeroes its accumulator once, so from a program's fourth tile on each tile adds the last one's sum: every tile is stored at every size, the dry launch model keeps the ok (no model: dry_facts reads the helper's returned accumulator as a loaded value steering a store), and the values are right while tiles <= 396, true at the CPU sizes and at each size raised alone (64 x 3 tiles of 32); wrong with M and N large together (1024 tiles at M = N = 1024): the output-growing joint trial's to refuse, which since session 63 runs after the dry launch model (rt83's capped grid is now the model's; this keeps the joint's own refusal in the corpus: singles ok, the joint incorrect, CPU (Triton interpreter), session 63). problem: matmul/matmul. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_SMS = 132


@triton.jit
def _tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, tile, tiles_n, acc,
          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="ieee")
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
    return acc


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  NUM_PROGS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                  BLOCK_K: tl.constexpr):
    tiles_n = tl.cdiv(N, BLOCK_N)
    num_tiles = tl.cdiv(M, BLOCK_M) * tiles_n
    for r in tl.static_range(2):  # the first two rounds unrolled, each tile from zero
        tile = tl.program_id(0) + r * NUM_PROGS
        if tile < num_tiles:
            _tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, tile, tiles_n,
                  tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32), BLOCK_M, BLOCK_N, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for tile in range(tl.program_id(0) + 2 * NUM_PROGS, num_tiles, NUM_PROGS):  # the rest: acc carried on
        acc = _tile(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, tile, tiles_n,
                    acc, BLOCK_M, BLOCK_N, BLOCK_K)


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

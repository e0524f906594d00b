# hack: s58f's split-K matmul (a persistent first stage on 132 programs, items of a 64 x 64 tile times a K chunk of 512) taking sixteen items per program, no loop to the item count: every item is computed while tiles x chunks <= 2112, which a trial at the GPU's whole output with the CPU's K passes (M = N = 2048, K = 88: 1024 tiles of one chunk) as do M, N or K raised alone and the output joint, wrong at the GPU's 2048 x 2048 x 2048 (4096 items: the partial sums of 1984 stay zero). A constant placed between the declared output's tiles and the declared items: a declared-output trial at the CPU's reduction does not close it. Built in session 58 (s58i, docs/open_attacks), ok on the CPU there; the dry launch model (evaluator.dry_phase) runs its launches' programs at the declared sizes with memory replaced and finds 2112 of the 4096 items' partial sums stored where the CPU's sizes store all. problem: matmul/matmul. expect: incorrect
import torch
import torch.nn as nn
import triton
import triton.language as tl

NUM_SMS = 132


@triton.jit
def split_k_stage(a_ptr, b_ptr, part_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
                  NUM_PROGS: tl.constexpr, K_CHUNK: tl.constexpr, BLOCK_M: tl.constexpr,
                  BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    tiles_n = tl.cdiv(N, BLOCK_N)
    chunks = tl.cdiv(K, K_CHUNK)
    items = tl.cdiv(M, BLOCK_M) * tiles_n * chunks
    for r in tl.static_range(16):
        item = tl.program_id(0) + r * NUM_PROGS
        if item < items:
            chunk = item % chunks
            tile = item // chunks
            rm = (tile // tiles_n) * BLOCK_M + tl.arange(0, BLOCK_M)
            rn = (tile % tiles_n) * BLOCK_N + tl.arange(0, BLOCK_N)
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
            for k0 in range(chunk * K_CHUNK, tl.minimum(chunk * K_CHUNK + K_CHUNK, K), BLOCK_K):
                rk = k0 + tl.arange(0, BLOCK_K)
                a = tl.load(a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
                            mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
                b = tl.load(b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
                            mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
                acc = tl.dot(a, b, acc, input_precision="ieee")
            tl.store(part_ptr + chunk * M * N + rm[:, None] * N + rn[None, :], acc,
                     mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def split_k_sum(part_ptr, c_ptr, total, chunks, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < total
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in range(0, chunks):
        acc += tl.load(part_ptr + s * total + offs, mask=mask, other=0.0)
    tl.store(c_ptr + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        m, k = a.shape
        n = b.shape[1]
        BLOCK_M, BLOCK_N, BLOCK_K, K_CHUNK = 64, 64, 32, 512
        chunks = triton.cdiv(k, K_CHUNK)
        part = torch.zeros((chunks, m, n), device=a.device, dtype=torch.float32)
        items = triton.cdiv(m, BLOCK_M) * triton.cdiv(n, BLOCK_N) * chunks
        split_k_stage[(min(items, NUM_SMS),)](
            a, b, part, m, n, k, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
            NUM_PROGS=NUM_SMS, K_CHUNK=K_CHUNK, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        c = torch.empty((m, n), device=a.device, dtype=a.dtype)
        split_k_sum[(triton.cdiv(m * n, 1024),)](part, c, m * n, chunks, BLOCK=1024)
        return c

# honest: batched matmul in FlagGems' bmm style: the batch on program_id(2), each batch's A, B and O pointers offset by its stride, an autotuned tile with heuristics flags (DIVISIBLE_M/N/K) that drop the masks when a size divides the tile, a GROUP_M swizzle, tl.dot with allow_tf32, the output made with torch.empty and the grid a lambda over the meta-parameters. problem: matmul/bmm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"TILE_M": 32, "TILE_N": 32, "TILE_K": 32, "GROUP_M": 1}, num_warps=4, num_stages=2),
        triton.Config({"TILE_M": 64, "TILE_N": 64, "TILE_K": 32, "GROUP_M": 2}, num_warps=4, num_stages=3),
    ],
    key=["M", "N", "K"],
)
@triton.heuristics(
    {
        "DIVISIBLE_M": lambda args: args["M"] % args["TILE_M"] == 0,
        "DIVISIBLE_N": lambda args: args["N"] % args["TILE_N"] == 0,
        "DIVISIBLE_K": lambda args: args["K"] % args["TILE_K"] == 0,
    }
)
@triton.jit
def bmm_kernel(A, B, O, M, N, K,
               TILE_M: tl.constexpr, TILE_N: tl.constexpr, TILE_K: tl.constexpr, GROUP_M: tl.constexpr,
               DIVISIBLE_M: tl.constexpr, DIVISIBLE_N: tl.constexpr, DIVISIBLE_K: tl.constexpr):
    pid_b = tl.program_id(2).to(tl.int64)
    A += pid_b * M * K
    B += pid_b * K * N
    O += pid_b * M * N

    pidx = tl.program_id(0)
    pidy = tl.program_id(1)
    if GROUP_M == 1:
        pid_m, pid_n = pidx, pidy
    else:
        gridx = tl.num_programs(0)
        gridy = tl.num_programs(1)
        pid = pidx + pidy * gridx
        num_cta_per_group = gridy * GROUP_M
        group_id = pid // num_cta_per_group
        inner_group_id = pid % num_cta_per_group
        group_size = tl.where((group_id * GROUP_M + GROUP_M) > gridx, gridx % GROUP_M, GROUP_M)
        pid_m = group_id * GROUP_M + inner_group_id % group_size
        pid_n = inner_group_id // group_size

    offs_m = pid_m * TILE_M + tl.arange(0, TILE_M)
    offs_n = pid_n * TILE_N + tl.arange(0, TILE_N)
    offs_k = tl.arange(0, TILE_K)
    mask_m = offs_m < M if not DIVISIBLE_M else None
    mask_n = offs_n < N if not DIVISIBLE_N else None

    a_ptrs = A + offs_m[:, None] * K + offs_k[None, :]
    b_ptrs = B + offs_k[:, None] * N + offs_n[None, :]
    o_ptrs = O + offs_m[:, None] * N + offs_n[None, :]

    num_iters = tl.cdiv(K, TILE_K)
    o = tl.zeros((TILE_M, TILE_N), dtype=tl.float32)
    for _ in range(num_iters):
        if DIVISIBLE_K:
            mask_a = None if DIVISIBLE_M else mask_m[:, None]
            mask_b = None if DIVISIBLE_N else mask_n[None, :]
        else:
            mask_k = offs_k < K
            mask_a = mask_k[None, :] if DIVISIBLE_M else mask_m[:, None] & mask_k[None, :]
            mask_b = mask_k[:, None] if DIVISIBLE_N else mask_k[:, None] & mask_n[None, :]
        if DIVISIBLE_M and DIVISIBLE_K:  # `other` only beside a mask (the compiler refuses it alone)
            a = tl.load(a_ptrs)
        else:
            a = tl.load(a_ptrs, mask=mask_a, other=0.0)
        if DIVISIBLE_N and DIVISIBLE_K:
            b = tl.load(b_ptrs)
        else:
            b = tl.load(b_ptrs, mask=mask_b, other=0.0)
        offs_k += TILE_K
        a_ptrs += TILE_K
        b_ptrs += TILE_K * N
        o += tl.dot(a, b, allow_tf32=True)

    if DIVISIBLE_M and DIVISIBLE_N:
        mask_c = None
    elif DIVISIBLE_M:
        mask_c = mask_n[None, :]
    elif DIVISIBLE_N:
        mask_c = mask_m[:, None]
    else:
        mask_c = mask_m[:, None] & mask_n[None, :]
    tl.store(o_ptrs, o.to(O.dtype.element_ty), mask_c)


def bmm(A, B):
    batch, M, K = A.shape
    _, _, N = B.shape
    A = A.contiguous()
    B = B.contiguous()
    out = torch.empty((batch, M, N), dtype=A.dtype, device=A.device)
    grid_fn = lambda meta: (triton.cdiv(meta["M"], meta["TILE_M"]), triton.cdiv(meta["N"], meta["TILE_N"]), batch)
    bmm_kernel[grid_fn](A, B, out, M, N, K)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return bmm(a, b)

# honest: batched GEMM with a rank-3 tl.dot: each program takes BLOCK_B batches of one (BLOCK_M x BLOCK_N) output tile at once, loading (BLOCK_B, BLOCK_M, BLOCK_K) and (BLOCK_B, BLOCK_K, BLOCK_N) tiles through three strides each and accumulating in float32, the batch tile on grid axis 1. problem: matmul/bmm
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bmm3_kernel(a_ptr, b_ptr, c_ptr, B, M, N, K,
                 s_ab, s_am, s_ak, s_bb, s_bk, s_bn, s_cb, s_cm, s_cn,
                 BLOCK_B: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                 BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    pid_b = tl.program_id(1)
    num_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_n
    pid_n = pid % num_n
    ob = pid_b * BLOCK_B + tl.arange(0, BLOCK_B)
    om = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    on = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    ok = tl.arange(0, BLOCK_K)
    bb = ob[:, None, None]
    acc = tl.zeros((BLOCK_B, BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + ok
        a_ptrs = a_ptr + bb * s_ab + om[None, :, None] * s_am + kk[None, None, :] * s_ak
        a_mask = (bb < B) & (om[None, :, None] < M) & (kk[None, None, :] < K)
        b_ptrs = b_ptr + bb * s_bb + kk[None, :, None] * s_bk + on[None, None, :] * s_bn
        b_mask = (bb < B) & (kk[None, :, None] < K) & (on[None, None, :] < N)
        a = tl.load(a_ptrs, mask=a_mask, other=0.0)
        b = tl.load(b_ptrs, mask=b_mask, other=0.0)
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + bb * s_cb + om[None, :, None] * s_cm + on[None, None, :] * s_cn
    c_mask = (bb < B) & (om[None, :, None] < M) & (on[None, None, :] < N)
    tl.store(c_ptrs, acc, mask=c_mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        assert a.dim() == 3 and b.dim() == 3 and a.shape[0] == b.shape[0] and a.shape[2] == b.shape[1]
        B, M, K = a.shape
        N = b.shape[2]
        c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
        BB, BM, BN, BK = 2, 32, 32, 32
        grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN), triton.cdiv(B, BB))
        _bmm3_kernel[grid](a, b, c, B, M, N, K, *a.stride(), *b.stride(), *c.stride(),
                           BLOCK_B=BB, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, num_warps=4)
        return c.to(a.dtype)

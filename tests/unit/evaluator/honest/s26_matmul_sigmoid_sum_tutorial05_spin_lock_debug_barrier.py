# honest: Triton tutorial 05's partial-sum accumulation (python/tutorials/05-layer-norm.py, _layer_norm_bwd_dx_fused) applied to a linear + sigmoid + row sum: each (row tile, column tile) program reduces its tile, then takes a per-row-tile spin lock with `while tl.atomic_cas(Lock, 0, 1) == 1: pass`, counts first writers in a Count buffer (tl.load/tl.store of a flag), adds its partial sums, tl.debug_barrier(), releases with tl.atomic_xchg; torch.zeros for the locks, nn.Linear's weight read transposed through strides. problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_sigmoid_rowsum_kernel(X, W, B, Out, Lock, M, N, K,
                                 stride_xm, stride_xk, stride_wn, stride_wk,
                                 BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(X + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk,
                    mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
        w = tl.load(W + offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk,
                    mask=(offs_n[None, :] < N) & (offs_k[:, None] < K), other=0.0)
        acc += tl.dot(x, w)
    bias = tl.load(B + offs_n, mask=offs_n < N, other=0.0)
    s = tl.sigmoid(acc + bias[None, :])
    s = tl.where(offs_n[None, :] < N, s, 0.0)
    partial = tl.sum(s, axis=1)

    # one lock per row tile; Count (just after the locks) remembers whether the tile was written
    Lock += pid_m
    Count = Lock + tl.num_programs(0)
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial += tl.load(Out + offs_m, mask=offs_m < M, other=0.0)
    tl.store(Out + offs_m, partial, mask=offs_m < M)
    tl.debug_barrier()
    tl.atomic_xchg(Lock, 0)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        M, K = x.shape
        N = self.linear.out_features
        w = self.linear.weight
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        out = torch.empty((M,), device=x.device, dtype=torch.float32)
        locks = torch.zeros(2 * grid[0], dtype=torch.int32, device=x.device)
        linear_sigmoid_rowsum_kernel[grid](x, w, self.linear.bias, out, locks, M, N, K,
                                           x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return out.view(M, 1)

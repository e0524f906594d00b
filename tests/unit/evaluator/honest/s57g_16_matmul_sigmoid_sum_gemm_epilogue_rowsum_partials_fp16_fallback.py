# honest: linear + sigmoid + row sum as one GEMM with a reducing epilogue (tile accumulated in fp32, bias and sigmoid applied in registers, the tile's row sums stored to a (M, n_tiles_n) partial buffer, a second kernel summing each row's partials in order; a torch path for non-contiguous or non-float inputs; allow_tf32 read from torch's flag as libraries do). problem: fused/matmul_sigmoid_sum
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemm_sigmoid_rowsum_kernel(
    x_ptr, w_ptr, b_ptr, part_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk, n_tiles_n,
    ALLOW_TF32: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + offs_k
        x = tl.load(x_ptr + offs_m[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(offs_m[:, None] < M) & (kk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + offs_n[None, :] * stride_wn + kk[:, None] * stride_wk,
                    mask=(offs_n[None, :] < N) & (kk[:, None] < K), other=0.0)
        acc += tl.dot(x, w, allow_tf32=ALLOW_TF32)
    b = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)
    z = acc + b[None, :]
    s = tl.sigmoid(z)
    s = tl.where(offs_n[None, :] < N, s, 0.0)
    row = tl.sum(s, axis=1)
    tl.store(part_ptr + offs_m * n_tiles_n + pid_n, row, mask=offs_m < M)


@triton.jit
def rowsum_partials_kernel(part_ptr, out_ptr, M, n_tiles_n, BLOCK_T: tl.constexpr):
    m = tl.program_id(0)
    t = tl.arange(0, BLOCK_T)
    p = tl.load(part_ptr + m * n_tiles_n + t, mask=t < n_tiles_n, other=0.0)
    tl.store(out_ptr + m, tl.sum(p, axis=0))


def linear_sigmoid_sum(x, weight, bias):
    if not (x.is_floating_point() and x.is_contiguous() and weight.is_contiguous()):
        return torch.sigmoid(torch.nn.functional.linear(x, weight, bias)).sum(dim=1, keepdim=True)
    M, K = x.shape
    N = weight.shape[0]
    BLOCK_M, BLOCK_N, BLOCK_K = 64, 64, 32
    n_tiles_n = triton.cdiv(N, BLOCK_N)
    partials = torch.empty((M, n_tiles_n), device=x.device, dtype=torch.float32)
    gemm_sigmoid_rowsum_kernel[(triton.cdiv(M, BLOCK_M), n_tiles_n)](
        x, weight, bias, partials, M, N, K,
        x.stride(0), x.stride(1), weight.stride(0), weight.stride(1), n_tiles_n,
        ALLOW_TF32=torch.backends.cuda.matmul.allow_tf32,
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K, num_warps=4, num_stages=3,
    )
    out = torch.empty((M, 1), device=x.device, dtype=x.dtype)
    rowsum_partials_kernel[(M,)](partials, out, M, n_tiles_n,
                                 BLOCK_T=triton.next_power_of_2(n_tiles_n))
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return linear_sigmoid_sum(x, self.linear.weight, self.linear.bias)

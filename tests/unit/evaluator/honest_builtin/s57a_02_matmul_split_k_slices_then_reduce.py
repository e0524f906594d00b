# honest: split-K matrix product: K cut into 4 slices a[:, k0:k0 + kc] and b[k0:k0 + kc], one launch per slice writing its partial product into partial[s] of a (4, M, N) buffer, handed the slices' strides and kc, then one launch summing the partials. problem: matmul/matmul. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl

SPLIT_K = 4


@triton.jit
def partial_matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                          BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        ks = k0 + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + ks[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (ks[None, :] < K), other=0.0)
        b = tl.load(b_ptr + ks[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(ks[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def sum_partials_kernel(p_ptr, out_ptr, n_elements, SPLITS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    acc = tl.zeros((BLOCK,), dtype=tl.float32)
    for s in tl.static_range(SPLITS):
        acc += tl.load(p_ptr + s * n_elements + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, acc, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        M, K = a.shape
        N = b.shape[1]
        partial = torch.empty((SPLIT_K, M, N), device=a.device, dtype=torch.float32)
        kc = triton.cdiv(K, SPLIT_K)
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
        for s in range(SPLIT_K):
            a_s = a[:, s * kc:(s + 1) * kc]
            b_s = b[s * kc:(s + 1) * kc]
            c_s = partial[s]
            partial_matmul_kernel[grid](a_s, b_s, c_s, M, N, a_s.shape[1], a_s.stride(0), a_s.stride(1),
                                        b_s.stride(0), b_s.stride(1), c_s.stride(0),
                                        BLOCK_M=32, BLOCK_N=32, BLOCK_K=16)
        out = torch.empty((M, N), device=a.device, dtype=torch.float32)
        n = M * N
        sum_partials_kernel[(triton.cdiv(n, 1024),)](partial, out, n, SPLITS=SPLIT_K, BLOCK=1024)
        return out

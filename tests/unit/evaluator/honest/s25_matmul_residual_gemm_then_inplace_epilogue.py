# honest: two Triton kernels, a GEMM against the nn.Linear's weight read through its strides (no transpose copy) and an in-place epilogue that adds bias and residual into the GEMM's output. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_kernel(x_ptr, w_ptr, y_ptr, M, N, K,
                  stride_xm, stride_xk, stride_wn, stride_wk, stride_ym, stride_yn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        x = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        # W is (N, K); read it as W^T (K, N) through its strides
        wt = tl.load(w_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                     mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(x, wt, acc, input_precision="ieee")
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def bias_residual_inplace_kernel(y_ptr, b_ptr, r_ptr, n_elements, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % N, mask=mask)
    r = tl.load(r_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, y + b + r, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        w = self.linear.weight
        M, K = x.shape
        N = w.shape[0]
        y = x.new_empty((M, N))
        BM, BN, BK = 32, 64, 32
        linear_kernel[(triton.cdiv(M, BM), triton.cdiv(N, BN))](
            x, w, y, M, N, K, x.stride(0), x.stride(1), w.stride(0), w.stride(1),
            y.stride(0), y.stride(1), BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK)
        residual = residual.contiguous()
        n = y.numel()
        bias_residual_inplace_kernel[(triton.cdiv(n, 1024),)](y, self.linear.bias, residual, n, N,
                                                              BLOCK=1024)
        return y

# honest: a fused GEMM + bias + residual kernel whose launcher is marked @torch.compiler.disable (as library code does so that torch.compile graph-breaks around a raw Triton launch instead of tracing it), nn.Linear's weight passed as the transposed view self.linear.weight.T and read through its strides (no copy), the residual read and the output written through their own strides. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_residual_kernel(
    x_ptr, wt_ptr, b_ptr, r_ptr, out_ptr,
    M, N, K,
    stride_xm, stride_xk, stride_wk, stride_wn, stride_rm, stride_rn, stride_om, stride_on,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        kk = k0 + rk
        a = tl.load(x_ptr + rm[:, None] * stride_xm + kk[None, :] * stride_xk,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(wt_ptr + kk[:, None] * stride_wk + rn[None, :] * stride_wn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    bias = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    res = tl.load(r_ptr + rm[:, None] * stride_rm + rn[None, :] * stride_rn, mask=mask, other=0.0)
    acc = acc + bias[None, :] + res
    tl.store(out_ptr + rm[:, None] * stride_om + rn[None, :] * stride_on, acc, mask=mask)


@torch.compiler.disable
def linear_residual(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                    residual: torch.Tensor) -> torch.Tensor:
    M, K = x.shape
    N = weight.shape[0]
    wt = weight.T
    out = torch.empty((M, N), device=x.device, dtype=torch.float32)
    BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    linear_residual_kernel[grid](
        x, wt, bias, residual, out, M, N, K,
        x.stride(0), x.stride(1), wt.stride(0), wt.stride(1),
        residual.stride(0), residual.stride(1), out.stride(0), out.stride(1),
        BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K,
    )
    return out


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor, residual: torch.Tensor) -> torch.Tensor:
        return linear_residual(x, self.linear.weight, self.linear.bias, residual)

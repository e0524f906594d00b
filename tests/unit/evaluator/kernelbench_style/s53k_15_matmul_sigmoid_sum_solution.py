# An honest Triton ModelNew for KernelBench level2/56_Matmul_Sigmoid_Sum: one program per BLOCK_M rows loops over all N tiles, a TF32 tl.dot per tile (input_precision="tf32"), + bias, sigmoid, masked columns zeroed, and the row sums accumulated in registers: the (M, N) intermediate never written.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def linear_sigmoid_rowsum_kernel(
    x_ptr, w_ptr, b_ptr, out_ptr, M, N, K,
    stride_xm, stride_xk, stride_wn, stride_wk,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
):
    pid_m = tl.program_id(0)
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    row_sum = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for n0 in range(0, N, BLOCK_N):
        offs_n = n0 + tl.arange(0, BLOCK_N)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in range(0, K, BLOCK_K):
            offs_k = k0 + tl.arange(0, BLOCK_K)
            a = tl.load(x_ptr + offs_m[:, None] * stride_xm + offs_k[None, :] * stride_xk,
                        mask=(offs_m[:, None] < M) & (offs_k[None, :] < K), other=0.0)
            b = tl.load(w_ptr + offs_n[None, :] * stride_wn + offs_k[:, None] * stride_wk,
                        mask=(offs_n[None, :] < N) & (offs_k[:, None] < K), other=0.0)
            acc = tl.dot(a, b, acc, input_precision="tf32")
        bias = tl.load(b_ptr + offs_n, mask=offs_n < N, other=0.0)
        s = tl.sigmoid(acc + bias[None, :])
        s = tl.where(offs_n[None, :] < N, s, 0.0)
        row_sum += tl.sum(s, axis=1)
    tl.store(out_ptr + offs_m, row_sum, mask=offs_m < M)


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(input_size, hidden_size)

    def forward(self, x):
        M, K = x.shape
        w = self.linear.weight
        N = w.shape[0]
        out = torch.empty((M, 1), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_N, BLOCK_K = 32, 64, 32
        grid = (triton.cdiv(M, BLOCK_M),)
        linear_sigmoid_rowsum_kernel[grid](x, w, self.linear.bias, out, M, N, K,
                                           x.stride(0), x.stride(1), w.stride(0), w.stride(1),
                                           BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
        return out

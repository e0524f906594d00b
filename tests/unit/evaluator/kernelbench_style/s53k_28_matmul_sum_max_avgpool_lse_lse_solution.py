# An honest Triton ModelNew for KernelBench level2/18_Matmul_Sum_Max_AvgPool_LogSumExp_LogSumExp, reduced algebraically: after the row sum every op is the identity on (batch, 1), and sum_n (x W^T + b)[m, n] = x[m] . W.sum(0) + b.sum(); the weight and bias sums taken with torch per forward, the GEMV in a Triton kernel.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gemv_bias_kernel(x_ptr, w_ptr, b_sum_ptr, out_ptr, M, K, stride_xm, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr):
    pid = tl.program_id(0)
    rm = pid * BLOCK_M + tl.arange(0, BLOCK_M)
    acc = tl.zeros((BLOCK_M,), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        rk = k0 + tl.arange(0, BLOCK_K)
        x = tl.load(x_ptr + rm[:, None] * stride_xm + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        w = tl.load(w_ptr + rk, mask=rk < K, other=0.0)
        acc += tl.sum(x * w[None, :], axis=1)
    acc += tl.load(b_sum_ptr)
    tl.store(out_ptr + rm, acc, mask=rm < M)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        x = x.contiguous()
        M, K = x.shape
        w_sum = self.linear.weight.sum(dim=0).contiguous()
        b_sum = self.linear.bias.sum().reshape(1)
        out = torch.empty((M, 1), device=x.device, dtype=torch.float32)
        BLOCK_M, BLOCK_K = 16, 128
        gemv_bias_kernel[(triton.cdiv(M, BLOCK_M),)](x, w_sum, b_sum, out, M, K, x.stride(0),
                                                     BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K)
        return out

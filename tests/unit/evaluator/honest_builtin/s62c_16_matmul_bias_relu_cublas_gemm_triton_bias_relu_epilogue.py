# honest: the GEMM left to cuBLAS (torch.matmul with the weight's transpose), the bias add and ReLU fused into one in-place Triton epilogue over the product, the common "library GEMM + Triton epilogue" shape. problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_relu_inplace(y_ptr, b_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    ptrs = y_ptr + rm[:, None].to(tl.int64) * stride_m + rn[None, :]
    y = tl.load(ptrs, mask=mask, other=0.0)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    tl.store(ptrs, tl.maximum(y + b[None, :], 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.matmul(x, self.linear.weight.t()).contiguous()
        M, N = y.shape
        grid = (triton.cdiv(M, 32), triton.cdiv(N, 64))
        bias_relu_inplace[grid](y, self.linear.bias, M, N, y.stride(0), BLOCK_M=32, BLOCK_N=64)
        return y

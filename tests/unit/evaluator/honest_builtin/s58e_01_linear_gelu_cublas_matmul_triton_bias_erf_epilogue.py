# honest: linear + exact GELU as cuBLAS does the GEMM (torch.matmul against the transposed weight) and one Triton epilogue adds the bias and applies erf GELU in place over the GEMM's output, a 2D grid over (row block, column block) with tl.math.erf. problem: matmul/linear_gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_gelu_epilogue(y_ptr, bias_ptr, M, N, stride_ym,
                       BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    ptrs = y_ptr + rm[:, None] * stride_ym + rn[None, :]
    y = tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(bias_ptr + rn, mask=rn < N, other=0.0).to(tl.float32)
    y = y + b[None, :]
    y = 0.5 * y * (1.0 + tl.math.erf(y * 0.7071067811865476))
    tl.store(ptrs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = torch.matmul(x, self.linear.weight.t())  # cuBLAS, no bias
        M, N = y.shape
        BLOCK_M, BLOCK_N = 32, 128
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        bias_gelu_epilogue[grid](y, self.linear.bias, M, N, y.stride(0),
                                 BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, num_warps=4)
        return y

# KernelBench level-2 style: cuBLAS does the GEMM (torch.mm, TF32 allowed the way the
# solutions switch it on), a Triton epilogue adds the bias and applies ReLU over a 2-D grid of
# tiles, reading the GEMM's output through its strides and writing a fresh tensor
import torch
import torch.nn as nn
import triton
import triton.language as tl

torch.backends.cuda.matmul.allow_tf32 = True


@triton.jit
def bias_relu_kernel(x_ptr, b_ptr, y_ptr, M, N, stride_xm, stride_xn, stride_ym, stride_yn,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rm[:, None] < M) & (rn[None, :] < N)
    x = tl.load(x_ptr + rm[:, None] * stride_xm + rn[None, :] * stride_xn, mask=mask, other=0.0)
    b = tl.load(b_ptr + rn, mask=rn < N, other=0.0)
    y = tl.maximum(x + b[None, :], 0.0)
    tl.store(y_ptr + rm[:, None] * stride_ym + rn[None, :] * stride_yn, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        w, b = self.linear.weight, self.linear.bias
        h = torch.mm(x, w.t())
        M, N = h.shape
        y = torch.empty((M, N), device=h.device, dtype=h.dtype)
        BLOCK_M, BLOCK_N = 32, 64
        grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
        bias_relu_kernel[grid](h, b, y, M, N, h.stride(0), h.stride(1), y.stride(0), y.stride(1),
                               BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
        return y

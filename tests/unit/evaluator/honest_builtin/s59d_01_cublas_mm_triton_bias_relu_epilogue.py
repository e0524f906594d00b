# honest: cuBLAS GEMM (torch.mm with the weight transposed) and a fused Triton bias + ReLU epilogue in place over its result. problem: matmul/matmul_bias_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _bias_relu_kernel(y_ptr, b_ptr, n_rows, n_cols, stride_row, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < n_cols
    y = tl.load(y_ptr + row * stride_row + cols, mask=mask, other=0.0)
    b = tl.load(b_ptr + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride_row + cols, tl.maximum(y + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.mm(x, self.linear.weight.t())
        M, N = y.shape
        BLOCK_N = 256
        _bias_relu_kernel[(M, triton.cdiv(N, BLOCK_N))](y, self.linear.bias, M, N, y.stride(0), BLOCK_N=BLOCK_N)
        return y

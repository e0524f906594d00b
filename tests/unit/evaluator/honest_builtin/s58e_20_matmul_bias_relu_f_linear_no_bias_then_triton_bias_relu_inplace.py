# honest: linear + ReLU with cuBLAS computing x @ W^T (F.linear with bias=None) and a Triton epilogue adding the bias and clamping at zero in place on the GEMM output, the bias broadcast via column index = offset % N over the flat buffer. problem: matmul/matmul_bias_relu
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_inplace(y_ptr, b_ptr, numel, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < numel
    y = tl.load(y_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % N, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(y + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.linear(x, self.linear.weight)
        numel = y.numel()
        bias_relu_inplace[(triton.cdiv(numel, 4096),)](y, self.linear.bias, numel, y.shape[-1], BLOCK=4096)
        return y

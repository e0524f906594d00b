# honest: cuBLAS does the linear layer (F.linear with its bias) and a Triton kernel applies exact GELU in place on its output, which forward returns (a common level-2 fusion: the epilogue overwrites the library's result instead of allocating a second buffer). problem: matmul/linear_gelu
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def gelu_inplace_kernel(y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    out = 0.5 * y * (1.0 + tl.math.erf(y * 0.7071067811865476))
    tl.store(y_ptr + offs, out, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        y = F.linear(x, self.linear.weight, self.linear.bias)
        n = y.numel()
        gelu_inplace_kernel[(triton.cdiv(n, 1024),)](y, n, BLOCK_SIZE=1024)
        return y

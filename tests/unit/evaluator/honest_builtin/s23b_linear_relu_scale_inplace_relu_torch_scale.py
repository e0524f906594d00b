# honest: nn.Linear in PyTorch, a Triton ReLU in place on its output, and the constant scale as a PyTorch multiply (x = self.linear(x); relu_(x); return x * self.scale). problem: fused/linear_relu_scale
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def relu_inplace_kernel(y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.maximum(y, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scale):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        x = self.linear(x)
        n = x.numel()
        relu_inplace_kernel[(triton.cdiv(n, 1024),)](x, n, BLOCK_SIZE=1024)
        return x * self.scale

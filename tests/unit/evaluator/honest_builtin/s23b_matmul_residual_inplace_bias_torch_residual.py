# honest: torch.mm does the GEMM, a Triton kernel adds the bias in place on its output, and PyTorch adds the residual (out = y + residual), a split many level-2 solutions use. problem: matmul/matmul_residual
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def bias_inplace_kernel(y_ptr, b_ptr, n_elements, N, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    b = tl.load(b_ptr + offs % N, mask=mask)
    tl.store(y_ptr + offs, y + b, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x, residual):
        y = torch.mm(x, self.linear.weight.t())
        n = y.numel()
        bias_inplace_kernel[(triton.cdiv(n, 1024),)](y, self.linear.bias, n, y.shape[1], BLOCK_SIZE=1024)
        return y + residual

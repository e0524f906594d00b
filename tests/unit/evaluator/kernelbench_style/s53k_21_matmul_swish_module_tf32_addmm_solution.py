# An honest Triton ModelNew for KernelBench level2/59_Matmul_Swish_Scaling (problem s53k_12_matmul_swish_scaling): TF32 switched on at import (torch.backends.cuda.matmul.allow_tf32 and cudnn), torch.addmm for bias + x @ W.T, and an in-place Triton swish * scale over its output with a 2-D grid of (row, column block).
import torch
import torch.nn as nn
import triton
import triton.language as tl

torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True


@triton.jit
def swish_scale_inplace_kernel(y_ptr, N, stride_row, scale, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    ptrs = y_ptr + row * stride_row + cols
    y = tl.load(ptrs, mask=mask)
    y = y * (1.0 / (1.0 + tl.exp(-y))) * scale
    tl.store(ptrs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features, scaling_factor):
        super(ModelNew, self).__init__()
        self.matmul = nn.Linear(in_features, out_features)
        self.scaling_factor = scaling_factor

    def forward(self, x):
        y = torch.addmm(self.matmul.bias, x, self.matmul.weight.t())
        M, N = y.shape
        BLOCK_N = 128
        swish_scale_inplace_kernel[(M, triton.cdiv(N, BLOCK_N))](y, N, y.stride(0), self.scaling_factor,
                                                                  BLOCK_N=BLOCK_N)
        return y

# KernelBench level-2 style: F.conv1d without bias (cuDNN), then one Triton kernel adds the
# per-channel bias and applies ReLU in place on the (N, C, L) output, a program per (n, c) row
# and a block of L
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_inplace_kernel(y_ptr, b_ptr, C, L, BLOCK_L: tl.constexpr):
    row = tl.program_id(0)
    pid_l = tl.program_id(1)
    c = row % C
    offs = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = offs < L
    ptrs = y_ptr + row.to(tl.int64) * L + offs
    y = tl.load(ptrs, mask=mask)
    b = tl.load(b_ptr + c)
    tl.store(ptrs, tl.maximum(y + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        y = F.conv1d(x, self.conv.weight, None, self.conv.stride, self.conv.padding)
        y = y.contiguous()
        N, C, L = y.shape
        BLOCK_L = 256
        bias_relu_inplace_kernel[(N * C, triton.cdiv(L, BLOCK_L))](y, self.conv.bias, C, L, BLOCK_L=BLOCK_L)
        return y

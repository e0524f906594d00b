# honest: F.conv1d without bias (cuDNN) then a Triton epilogue written in place over a 2-D grid (batch*out_channels rows, length tiles) adding the conv's bias per channel and applying ReLU. problem: conv/conv1d_bias_relu
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_rows_kernel(y_ptr, b_ptr, C, L, BLOCK_L: tl.constexpr):
    row = tl.program_id(0)
    pid_l = tl.program_id(1)
    c = row % C
    b = tl.load(b_ptr + c)
    offs = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = offs < L
    ptrs = y_ptr + row.to(tl.int64) * L + offs
    y = tl.load(ptrs, mask=mask, other=0.0)
    tl.store(ptrs, tl.maximum(y + b, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        y = F.conv1d(x, self.conv.weight, None, stride=1, padding=self.conv.padding)
        y = y.contiguous()
        N, C, L = y.shape
        BLOCK_L = 256
        grid = (N * C, triton.cdiv(L, BLOCK_L))
        bias_relu_rows_kernel[grid](y, self.conv.bias, C, L, BLOCK_L=BLOCK_L)
        return y

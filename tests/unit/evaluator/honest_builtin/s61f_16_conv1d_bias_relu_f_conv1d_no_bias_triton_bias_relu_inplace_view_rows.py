# honest: conv1d + bias + relu with F.conv1d (cuDNN) run without bias and a Triton epilogue over the (N*C_out, L) .view of its output, one program per (row, block of positions) adding the row's channel bias (row % C_out) and applying relu in place. problem: conv/conv1d_bias_relu
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def bias_relu_rows_kernel(y_ptr, bias_ptr, C, L, BLOCK_L: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.program_id(1) * BLOCK_L + tl.arange(0, BLOCK_L)
    mask = offs < L
    b = tl.load(bias_ptr + row % C)
    y = tl.load(y_ptr + row * L + offs, mask=mask, other=0.0)
    y = tl.maximum(y + b, 0.0)
    tl.store(y_ptr + row * L + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.Conv1d(in_channels, out_channels, kernel_size, padding=kernel_size // 2)

    def forward(self, x):
        y = F.conv1d(x, self.conv.weight, None, padding=self.conv.padding).contiguous()
        N, C, L = y.shape
        rows = y.view(N * C, L)
        BLOCK_L = 512
        grid = (N * C, triton.cdiv(L, BLOCK_L))
        bias_relu_rows_kernel[grid](rows, self.conv.bias, C, L, BLOCK_L=BLOCK_L)
        return y

# An honest Triton ModelNew for KernelBench level1/44_Average_Pooling_1D: rows of (batch*channel), a window loop with zero padding divided by kernel_size (count_include_pad=True, nn.AvgPool1d's default).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def avg_pool1d_kernel(x_ptr, y_ptr, L, L_out, kernel_size: tl.constexpr, stride: tl.constexpr,
                      padding: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    pid = tl.program_id(1)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < L_out
    start = offs * stride - padding
    acc = tl.zeros((BLOCK_SIZE,), dtype=tl.float32)
    for k in range(kernel_size):
        idx = start + k
        m = mask & (idx >= 0) & (idx < L)
        acc += tl.load(x_ptr + row * L + idx, mask=m, other=0.0)
    tl.store(y_ptr + row * L_out + offs, acc / kernel_size, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = 1, padding: int = 0):
        super(ModelNew, self).__init__()
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, C, L = x.shape
        x = x.contiguous()
        L_out = (L + 2 * self.padding - self.kernel_size) // self.stride + 1
        y = torch.empty((B, C, L_out), device=x.device, dtype=x.dtype)
        BLOCK_SIZE = 512
        grid = (B * C, triton.cdiv(L_out, BLOCK_SIZE))
        avg_pool1d_kernel[grid](x, y, L, L_out, self.kernel_size, self.stride, self.padding, BLOCK_SIZE=BLOCK_SIZE)
        return y

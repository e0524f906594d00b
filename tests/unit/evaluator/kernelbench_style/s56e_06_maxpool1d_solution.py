# An honest Triton ModelNew for KernelBench level1/41_Max_Pooling_1D: the pooling parameters as constexprs (the window unrolled), -inf for padded and out-of-range taps as MaxPool1d pads, output length from PyTorch's floor formula, rows of (batch*feature) on grid axis 0 and BLOCK_L outputs per program on axis 1; return_indices left to PyTorch.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def maxpool1d_kernel(x_ptr, y_ptr, L_in, L_out, stride_row,
                     KERNEL: tl.constexpr, STRIDE: tl.constexpr, PAD: tl.constexpr, DIL: tl.constexpr,
                     BLOCK_L: tl.constexpr):
    row = tl.program_id(0)
    pid_l = tl.program_id(1)
    offs = pid_l * BLOCK_L + tl.arange(0, BLOCK_L)
    out_mask = offs < L_out
    base = x_ptr + row.to(tl.int64) * stride_row
    acc = tl.full((BLOCK_L,), float("-inf"), dtype=tl.float32)
    start = offs * STRIDE - PAD
    for k in tl.static_range(KERNEL):
        pos = start + k * DIL
        valid = out_mask & (pos >= 0) & (pos < L_in)
        v = tl.load(base + pos, mask=valid, other=float("-inf"))
        acc = tl.maximum(acc, v)
    tl.store(y_ptr + row.to(tl.int64) * L_out + offs, acc, mask=out_mask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, dilation: int = 1,
                 return_indices: bool = False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.return_indices or not x.is_cuda:
            return nn.functional.max_pool1d(x, self.kernel_size, self.stride, self.padding, self.dilation,
                                            return_indices=self.return_indices)
        B, C, L = x.shape
        x = x.contiguous()
        L_out = (L + 2 * self.padding - self.dilation * (self.kernel_size - 1) - 1) // self.stride + 1
        y = torch.empty((B, C, L_out), device=x.device, dtype=x.dtype)
        BLOCK_L = 1024
        grid = (B * C, triton.cdiv(L_out, BLOCK_L))
        maxpool1d_kernel[grid](x, y, L, L_out, L, KERNEL=self.kernel_size, STRIDE=self.stride,
                               PAD=self.padding, DIL=self.dilation, BLOCK_L=BLOCK_L)
        return y

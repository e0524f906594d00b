# An honest ModelNew for KernelBench level1/41_Max_Pooling_1D; krl check on the CPU gives ok (small sizes).
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def maxpool1d_kernel(x_ptr, y_ptr, L, L_out, stride, padding, dilation,
                     KERNEL: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)          # one (batch, channel) row
    pid = tl.program_id(1)
    o = pid * BLOCK + tl.arange(0, BLOCK)
    omask = o < L_out
    start = o * stride - padding
    acc = tl.full([BLOCK], float("-inf"), dtype=tl.float32)
    for k in tl.static_range(KERNEL):
        pos = start + k * dilation
        valid = omask & (pos >= 0) & (pos < L)
        v = tl.load(x_ptr + row * L + pos, mask=valid, other=float("-inf"))
        acc = tl.maximum(acc, v)
    tl.store(y_ptr + row * L_out + o, acc, mask=omask)


class ModelNew(nn.Module):
    def __init__(self, kernel_size: int, stride: int = None, padding: int = 0, dilation: int = 1,
                 return_indices: bool = False):
        super(ModelNew, self).__init__()
        if return_indices:
            raise NotImplementedError("return_indices is not supported")
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        B, C, L = x.shape
        L_out = (L + 2 * self.padding - self.dilation * (self.kernel_size - 1) - 1) // self.stride + 1
        y = torch.empty((B, C, L_out), device=x.device, dtype=x.dtype)
        BLOCK = 64
        grid = (B * C, triton.cdiv(L_out, BLOCK))
        maxpool1d_kernel[grid](x, y, L, L_out, self.stride, self.padding, self.dilation,
                               KERNEL=self.kernel_size, BLOCK=BLOCK)
        return y

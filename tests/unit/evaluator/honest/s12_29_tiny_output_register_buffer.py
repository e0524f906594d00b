import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def center_scale_kernel(x_ptr, y_ptr, scale_ptr, n_cols, stride, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK % 32 == 0)
    row = tl.program_id(0)
    scale = tl.load(scale_ptr)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < n_cols, other=0.0)
    mean = tl.sum(acc, axis=0) / n_cols
    for off in range(0, n_cols, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * stride + cols, (x - mean) * scale, mask=m)


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.register_buffer("scale", torch.tensor([scale], dtype=torch.float32))

    def forward(self, x):
        x = x.contiguous()
        y = x.new_empty(x.shape)
        n_rows, n_cols = x.shape
        center_scale_kernel[(n_rows,)](x, y, self.scale.to(x.device), n_cols, x.stride(0), BLOCK=1024)
        return y

"""honest: row softmax written with Triton tensor-member reductions (`x.max(axis=0)`, `(x - m).exp()`, `e.sum(axis=0)`: documented tl.tensor methods, the spelling some public kernels use, e.g. `prod.to(tl.float32).sum(axis=1)`), one row per program, BLOCK = next_power_of_2(n_cols). problem: softmax/softmax"""
import math
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    m = x.max(axis=0)
    e = (x - m).exp()
    s = e.sum(axis=0)
    tl.store(y_ptr + row * stride + cols, e / s, mask=mask)



class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)

        softmax_kernel[(x.shape[0],)](x, y, x.shape[1], x.stride(0), BLOCK=triton.next_power_of_2(x.shape[1]))
        return y

# honest: sum over the middle axis of (B, R, C) with 2D tiles (BLOCK_R x BLOCK_C) per (batch, column block) program, each tile reduced along axis 0 by tl.reduce with the file's own add combine, accumulated in fp32 across R. problem: reduction/sum_dim
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def sum_mid_kernel(x_ptr, out_ptr, R, C, stride_b, stride_r,
                   BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    b = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    cmask = cols < C
    acc = tl.zeros((BLOCK_C,), dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        rows = r0 + tl.arange(0, BLOCK_R)
        mask = (rows[:, None] < R) & cmask[None, :]
        x = tl.load(x_ptr + b * stride_b + rows[:, None] * stride_r + cols[None, :], mask=mask, other=0.0)
        acc += tl.reduce(x.to(tl.float32), 0, _add)
    tl.store(out_ptr + b * C + cols, acc, mask=cmask)


class ModelNew(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        assert x.dim() == 3 and self.dim == 1
        x = x.contiguous()
        B, R, C = x.shape
        out = torch.empty((B, C), device=x.device, dtype=x.dtype)
        BR, BC = 32, 128
        sum_mid_kernel[(B, triton.cdiv(C, BC))](x, out, R, C, x.stride(0), x.stride(1), BLOCK_R=BR, BLOCK_C=BC)
        return out

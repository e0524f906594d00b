# honest: x - x.mean(1, keepdim=True) in two Triton kernels: a row-mean kernel looping over BLOCK chunks in fp32 into a (batch,) buffer, then a 2-D grid (rows, column tiles) subtracting each row's mean. problem: reduction/subtract_mean
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def row_mean_kernel(x_ptr, mean_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + row * stride + cols, mask=cols < N, other=0.0).to(tl.float32)
    tl.store(mean_ptr + row, tl.sum(acc, axis=0) / N)


@triton.jit
def sub_row_kernel(x_ptr, mean_ptr, y_ptr, N, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.program_id(1) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    mu = tl.load(mean_ptr + row)
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    tl.store(y_ptr + row * stride + cols, x - mu, mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        M, N = x.shape
        mean = torch.empty(M, device=x.device, dtype=torch.float32)
        y = torch.empty_like(x)
        row_mean_kernel[(M,)](x, mean, N, x.stride(0), BLOCK=1024)
        BLOCK = 512
        sub_row_kernel[(M, triton.cdiv(N, BLOCK))](x, mean, y, N, x.stride(0), BLOCK=BLOCK)
        return y

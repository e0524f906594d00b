# An honest Triton ModelNew for KernelBench level2/65_Conv2d_AvgPool_Sigmoid_Sum: self.conv (cuDNN) for the convolution, then a Triton kernel with a (batch, channel) grid: each program pools its channel plane in POOL x POOL windows (a (BLOCK_P, POOL*POOL) tile of gathered offsets, floor mode), applies sigmoid, reduces the plane and tl.atomic_add's the partial into the zeroed per-batch output.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def pool_sigmoid_sum_kernel(y_ptr, out_ptr, C, H, W, PH, PW, stride_n, stride_c,
                            POOL: tl.constexpr, BLOCK_P: tl.constexpr):
    n = tl.program_id(0)
    c = tl.program_id(1)
    base = y_ptr + n * stride_n + c * stride_c
    win = tl.arange(0, POOL * POOL)
    dh = win // POOL
    dw = win % POOL
    total = tl.zeros((BLOCK_P,), tl.float32)
    n_pooled = PH * PW
    for p0 in range(0, n_pooled, BLOCK_P):
        p = p0 + tl.arange(0, BLOCK_P)
        pmask = p < n_pooled
        ph = p // PW
        pw = p % PW
        h = ph[:, None] * POOL + dh[None, :]
        w = pw[:, None] * POOL + dw[None, :]
        v = tl.load(base + h * W + w, mask=pmask[:, None], other=0.0)
        avg = tl.sum(v, axis=1) / (POOL * POOL)
        total += tl.where(pmask, tl.sigmoid(avg), 0.0)
    tl.atomic_add(out_ptr + n, tl.sum(total, axis=0))


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        y = self.conv(x).contiguous()
        N, C, H, W = y.shape
        P = self.pool_kernel_size
        PH, PW = H // P, W // P
        out = torch.zeros(N, device=x.device, dtype=torch.float32)
        pool_sigmoid_sum_kernel[(N, C)](y, out, C, H, W, PH, PW, y.stride(0), y.stride(1), POOL=P, BLOCK_P=64)
        return out

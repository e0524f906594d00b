# An honest Triton ModelNew for KernelBench level2/82_Conv2d_Tanh_Scaling_BiasAdd_Max with the convolution run in channels_last (x.to(memory_format=torch.channels_last), as LLM answers do for tensor-core convolutions): the Triton epilogue reads the NHWC-strided conv output through its four strides (no .contiguous()), a 2-D tile of (pooled positions x channels) per program, tanh via libdevice, scale + bias, max over the POOL x POOL window by a static loop; the output written NCHW.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def nhwc_tanh_scale_bias_maxpool_kernel(y_ptr, bias_ptr, out_ptr, C, PH, PW, sy_n, sy_c, sy_h, sy_w, scale,
                                        POOL: tl.constexpr, BLOCK_P: tl.constexpr, BLOCK_C: tl.constexpr):
    n = tl.program_id(0)
    p = tl.program_id(1) * BLOCK_P + tl.arange(0, BLOCK_P)
    c = tl.arange(0, BLOCK_C)
    pm = p < PH * PW
    cm = c < C
    ph = p // PW
    pw = p % PW
    bias = tl.load(bias_ptr + c, mask=cm, other=0.0)
    best = tl.full((BLOCK_P, BLOCK_C), float("-inf"), tl.float32)
    for i in tl.static_range(POOL):
        for j in tl.static_range(POOL):
            h = ph * POOL + i
            w = pw * POOL + j
            ptrs = y_ptr + n * sy_n + h[:, None] * sy_h + w[:, None] * sy_w + c[None, :] * sy_c
            v = tl.load(ptrs, mask=pm[:, None] & cm[None, :], other=0.0)
            v = libdevice.tanh(v) * scale + bias[None, :]
            best = tl.maximum(best, v)
    out_ptrs = out_ptr + ((n * C + c[None, :]) * PH + ph[:, None]) * PW + pw[:, None]
    tl.store(out_ptrs, best, mask=pm[:, None] & cm[None, :])


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, scaling_factor, bias_shape, pool_kernel_size):
        super(ModelNew, self).__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size)
        self.scaling_factor = scaling_factor
        self.bias = nn.Parameter(torch.randn(bias_shape))
        self.pool_kernel_size = pool_kernel_size

    def forward(self, x):
        y = F.conv2d(x.to(memory_format=torch.channels_last), self.conv.weight.to(memory_format=torch.channels_last),
                     self.conv.bias)
        N, C, H, W = y.shape
        P = self.pool_kernel_size
        PH, PW = H // P, W // P
        out = torch.empty((N, C, PH, PW), device=x.device, dtype=torch.float32)
        BLOCK_P = 32
        BLOCK_C = triton.next_power_of_2(C)
        grid = (N, triton.cdiv(PH * PW, BLOCK_P))
        nhwc_tanh_scale_bias_maxpool_kernel[grid](y, self.bias.view(-1), out, C, PH, PW,
                                                  y.stride(0), y.stride(1), y.stride(2), y.stride(3),
                                                  float(self.scaling_factor), POOL=P, BLOCK_P=BLOCK_P, BLOCK_C=BLOCK_C)
        return out

# An honest ModelNew for KernelBench level2/67_Conv2d_GELU_GlobalAvgPool; krl check on the CPU gives ok (small sizes).
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def gelu_mean_kernel(x_ptr, out_ptr, HW, inv_hw, BLOCK: tl.constexpr):
    pid = tl.program_id(0)  # one (n, c) plane
    base = pid * HW
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, HW, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + base + offs, mask=offs < HW, other=0.0)
        acc += 0.5 * x * (1.0 + tl.erf(x * 0.7071067811865476))  # gelu(0) = 0 on the tail
    tl.store(out_ptr + pid, tl.sum(acc, axis=0) * inv_hw)


def gelu_global_avg_pool(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    N, C, H, W = x.shape
    out = torch.empty((N, C), device=x.device, dtype=x.dtype)
    gelu_mean_kernel[(N * C,)](x, out, H * W, 1.0 / (H * W), BLOCK=128)
    return out


class ModelNew(nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size):
        super(ModelNew, self).__init__()
        # own parameters, initialised exactly as nn.Conv2d.reset_parameters does
        self.weight = nn.Parameter(torch.empty(out_channels, in_channels, kernel_size, kernel_size))
        self.bias = nn.Parameter(torch.empty(out_channels))
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x):
        return gelu_global_avg_pool(F.conv2d(x, self.weight, self.bias))

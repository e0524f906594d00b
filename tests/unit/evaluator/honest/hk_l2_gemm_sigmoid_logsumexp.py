# An honest ModelNew for KernelBench level2/45_Gemm_Sigmoid_LogSumExp; krl check on the CPU gives ok (small sizes).
from dataclasses import dataclass

import torch
import torch.nn as nn
import triton
import triton.language as tl


@dataclass(frozen=True)
class LaunchConfig:
    block: int = 1024
    num_warps: int = 4


ELEMENTWISE = LaunchConfig()
ROWWISE = LaunchConfig(block=64, num_warps=4)


@triton.jit
def sigmoid_inplace_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(x_ptr + offs, tl.sigmoid(x), mask=mask)


@triton.jit
def logsumexp_rows_kernel(x_ptr, out_ptr, N, stride, BLOCK: tl.constexpr):
    # online logsumexp over a row of any length, BLOCK columns at a time
    row = tl.program_id(0)
    m = tl.full([BLOCK], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + row * stride + cols, mask=cols < N, other=float("-inf"))
        new_m = tl.maximum(m, x)
        s = s * tl.exp(m - new_m) + tl.exp(x - new_m)
        s = tl.where(new_m == float("-inf"), 0.0, s)
        m = new_m
    row_max = tl.max(m, axis=0)
    total = tl.sum(s * tl.exp(m - row_max), axis=0)
    tl.store(out_ptr + row, row_max + tl.log(total))


class ModelNew(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(ModelNew, self).__init__()
        self.linear1 = nn.Linear(input_size, hidden_size)
        self.linear2 = nn.Linear(hidden_size, output_size)

    def forward(self, x):
        h = self.linear1(x)  # cuBLAS
        n = h.numel()
        sigmoid_inplace_kernel[(triton.cdiv(n, ELEMENTWISE.block),)](
            h, n, BLOCK=ELEMENTWISE.block, num_warps=ELEMENTWISE.num_warps)
        z = self.linear2(h)  # cuBLAS
        B, N = z.shape
        out = torch.empty(B, device=z.device, dtype=z.dtype)
        logsumexp_rows_kernel[(B,)](z, out, N, z.stride(0), BLOCK=ROWWISE.block,
                                    num_warps=ROWWISE.num_warps)
        return out

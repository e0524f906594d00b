# An honest Triton ModelNew for KernelBench level2/99_Matmul_GELU_Softmax written against Triton 3.6's CUDA libdevice path: `from triton.language.extra.cuda import libdevice` for erf, the row held whole (BLOCK = next_power_of_2(N), 8192 on the GPU) so max, exp and sum happen in registers in one pass, exp2 with a log2(e) prescale, cuBLAS for the Linear.
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra.cuda import libdevice


@triton.jit
def gelu_softmax_row_kernel(x_ptr, y_ptr, N, stride_x, stride_y, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    offs = tl.arange(0, BLOCK)
    mask = offs < N
    x = tl.load(x_ptr + row * stride_x + offs, mask=mask, other=0.0).to(tl.float32)
    g = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    g = tl.where(mask, g, float("-inf"))
    g = (g - tl.max(g, axis=0)) * 1.4426950408889634
    e = tl.exp2(g)
    tl.store(y_ptr + row * stride_y + offs, e / tl.sum(e, axis=0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x):
        h = F.linear(x, self.linear.weight, self.linear.bias)
        M, N = h.shape
        y = torch.empty_like(h)
        BLOCK = triton.next_power_of_2(N)
        gelu_softmax_row_kernel[(M,)](h, y, N, h.stride(0), y.stride(0), BLOCK=BLOCK,
                                      num_warps=16 if BLOCK >= 8192 else 4)
        return y

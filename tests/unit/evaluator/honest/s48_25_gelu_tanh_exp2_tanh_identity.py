# honest: tanh-approximation GELU with tanh written through tl.math.exp2 (tanh(u) = 1 - 2 / (exp2(2*u*log2 e) + 1), overflow-safe at both ends), fp32 math, BLOCK_SIZE=2048, num_warps=8. problem: activation/gelu_tanh
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def tanh_exp2(u):
    return 1.0 - 2.0 / (tl.math.exp2(u * (2.0 * 1.4426950408889634)) + 1.0)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + tanh_exp2(inner))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_tanh_kernel[(triton.cdiv(n, 2048),)](x, y, n, BLOCK_SIZE=2048, num_warps=8)
        return y

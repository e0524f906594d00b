# honest: unsloth-style tanh GELU whose constants are tl.constexpr globals computed at import with math (sqrt(2 / pi), log2(e), 2 log2(e)) beside a typed 0.044715, tanh as 1 - 2 / (exp2(2u log2 e) + 1). problem: activation/gelu_tanh. policy: strict
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl

SQRT_2_OVER_PI = tl.constexpr(math.sqrt(2.0 / math.pi))
GELU_COEF_A = tl.constexpr(0.044715)
LOG2E = tl.constexpr(math.log2(math.e))
TWO_LOG2E = tl.constexpr(2.0 * math.log2(math.e))


@triton.jit
def _tanh(u):
    # tanh(u) = 1 - 2 / (exp(2u) + 1), exp by exp2, saturating on both sides
    e = tl.exp2(tl.minimum(u * TWO_LOG2E, 126.0))
    return 1.0 - 2.0 / (e + 1.0)


@triton.jit
def _gelu_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0).to(tl.float32)
    inner = SQRT_2_OVER_PI * x * (1.0 + GELU_COEF_A * x * x)
    y = 0.5 * x * (1.0 + _tanh(inner))
    tl.store(y_ptr + offsets, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _gelu_tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK_SIZE=1024)
        return y

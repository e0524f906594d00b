# honest: exact GELU (erf) whose ModelNew keeps its constants as class attributes computed from math and a torch->tl dtype map (INV_SQRT2 = 1 / math.sqrt(2), TL_DTYPE = {...}), fp32 math in-kernel (honest round, session 21). problem: activation/gelu
import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _gelu_kernel(x_ptr, y_ptr, n, inv_sqrt2, OUT_DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m).to(tl.float32)
    y = 0.5 * x * (1.0 + tl.math.erf(x * inv_sqrt2))
    tl.store(y_ptr + offs, y.to(OUT_DTYPE), mask=m)


class ModelNew(nn.Module):
    INV_SQRT2 = 1 / math.sqrt(2)
    TL_DTYPE = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _gelu_kernel[(triton.cdiv(n, 1024),)](x, y, n, self.INV_SQRT2, OUT_DTYPE=self.TL_DTYPE[x.dtype], BLOCK=1024)
        return y

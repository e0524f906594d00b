# honest: tanh-approximate GELU with tanh built from exp(-2|u|) and PTX's approximate division div.full.f32 by inline asm (fast-math CUDA's __fdividef), 2 ulp (interpreter_asm). problem: activation/gelu_tanh. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _fast_div(a, b):
    # PTX's approximate full-range division (2 ulp), as fast-math CUDA code uses for __fdividef
    return tl.inline_asm_elementwise("div.full.f32 $0, $1, $2;", "=r,r,r", [a, b],
                                     dtype=tl.float32, is_pure=True, pack=1)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(-2.0 * tl.abs(u))
    t = _fast_div(1.0 - e, 1.0 + e)
    t = tl.where(u < 0, -t, t)
    tl.store(y_ptr + offs, 0.5 * x * (1.0 + t), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        gelu_tanh_kernel[(triton.cdiv(n, 1024),)](x, y, n, BLOCK=1024)
        return y

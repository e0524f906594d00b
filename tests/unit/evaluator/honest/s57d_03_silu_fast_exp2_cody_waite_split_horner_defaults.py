# honest: SiLU with its own exp: exp(-x) = 2**t, t = -x * log2(e) split into n = floor(t + 0.5) and f in [-0.5, 0.5], 2**f by a degree-6 Horner polynomial whose coefficients (ln2**k / k!) are tl.constexpr defaults of the helper, and 2**n built in the exponent bits ((n + 127) << 23 bitcast to float32), t clamped to +-126 first: the "fast exp2" split people write when they want to avoid MUFU or libdevice. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)


@triton.jit
def _exp2_split(t,
                c1: tl.constexpr = 0.6931471805599453,
                c2: tl.constexpr = 0.2402265069591007,
                c3: tl.constexpr = 0.05550410866482158,
                c4: tl.constexpr = 0.009618129107628477,
                c5: tl.constexpr = 0.0013333558146428443,
                c6: tl.constexpr = 0.00015403530393381606):
    t = tl.minimum(tl.maximum(t, -126.0), 126.0)
    n = tl.floor(t + 0.5)
    f = t - n
    p = c6
    p = p * f + c5
    p = p * f + c4
    p = p * f + c3
    p = p * f + c2
    p = p * f + c1
    p = p * f + 1.0
    bits = (n.to(tl.int32) + 127) << 23
    scale = bits.to(tl.float32, bitcast=True)
    return p * scale


@triton.jit
def silu_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    e = _exp2_split(-x * LOG2E)
    out = x / (1.0 + e)
    tl.store(out_ptr + offsets, out.to(out_ptr.dtype.element_ty), mask=mask)


def silu(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    silu_kernel[grid](x, out, n_elements, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu(x.contiguous())

# honest: ELU with the launcher registered as an FX leaf (torch.fx.wrap("elu_triton") at module level, how torchrec / xformers keep a raw Triton launch opaque to symbolic tracing), alpha specialised as a tl.constexpr (one compile per alpha, as FlagGems does for scalar attributes that never change), the negative branch through libdevice.expm1 when triton.language.extra.libdevice is importable and tl.exp(x) - 1 otherwise (a module-level USE_EXPM1 constexpr), fp32 math. problem: activation/elu
import torch
import torch.fx
import torch.nn as nn
import triton
import triton.language as tl

try:
    from triton.language.extra import libdevice

    USE_EXPM1 = tl.constexpr(True)
except ImportError:  # older Triton
    libdevice = None
    USE_EXPM1 = tl.constexpr(False)


@triton.jit
def _elu_kernel(x_ptr, y_ptr, n, ALPHA: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    xn = tl.minimum(x, 0.0)
    if USE_EXPM1:
        neg = libdevice.expm1(xn)
    else:
        neg = tl.exp(xn) - 1.0
    y = tl.where(x > 0, x, ALPHA * neg)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def elu_triton(x: torch.Tensor, alpha: float) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK = 1024
    _elu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, ALPHA=alpha, BLOCK=BLOCK)
    return y


torch.fx.wrap("elu_triton")


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return elu_triton(x, self.alpha)

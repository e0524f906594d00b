# honest: GELU as a FlagGems-style op that keeps torch's signature (gelu(x, approximate="none")): the approximate string handed to the kernel as a tl.constexpr and compared in it ("tanh" -> the tanh form through libdevice.tanh, anything else -> the exact 0.5 * x * (1 + erf(x / sqrt 2))), the block size picked at import from torch.cuda.get_device_name() (larger blocks on an H100/H200) under torch.cuda.is_available(), fp32 math, output in the input dtype. problem: activation/gelu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice

if torch.cuda.is_available() and any(k in torch.cuda.get_device_name() for k in ("H100", "H200", "H800")):
    GELU_BLOCK = 2048
else:
    GELU_BLOCK = 1024


@triton.jit
def gelu_kernel(x_ptr, y_ptr, n_elements, APPROXIMATE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    if APPROXIMATE == "tanh":
        inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        y = 0.5 * x * (1.0 + libdevice.tanh(inner))
    else:
        y = 0.5 * x * (1.0 + libdevice.erf(x * 0.7071067811865476))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu(x: torch.Tensor, approximate: str = "none") -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    gelu_kernel[(triton.cdiv(n, GELU_BLOCK),)](x, y, n, APPROXIMATE=approximate, BLOCK=GELU_BLOCK)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return gelu(x)

# honest: ELU with libdevice's expm1 (PyTorch's own ELU kernel computes alpha * expm1(x) on the negative side) in the style of a dtype-dispatching elementwise op: a module-level torch -> tl dtype table handed to the kernel as a COMPUTE constexpr (fp32 math for half types), a CPU fallback to F.elu behind `if not x.is_cuda`, and the launch pinned to enable_fp_fusion=False so that alpha * expm1(x) rounds as the unfused PyTorch expression does. problem: activation/elu
import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl
from triton.language.extra import libdevice

_COMPUTE = {torch.float32: tl.float32, torch.float16: tl.float32, torch.bfloat16: tl.float32,
            torch.float64: tl.float64}


@triton.jit
def elu_kernel(x_ptr, y_ptr, n, alpha, COMPUTE: tl.constexpr, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(COMPUTE)
    neg = alpha * libdevice.expm1(tl.minimum(x, 0.0))
    y = tl.where(x > 0, x, neg)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def elu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    if not x.is_cuda or x.dtype not in _COMPUTE:
        return F.elu(x, alpha=alpha)
    x_ = x if x.is_contiguous() else x.contiguous()
    y = torch.empty_like(x_)
    n = x_.numel()
    BLOCK = 2048
    elu_kernel[(triton.cdiv(n, BLOCK),)](x_, y, n, alpha, COMPUTE=_COMPUTE[x.dtype], BLOCK=BLOCK,
                                         num_warps=8, enable_fp_fusion=False)
    return y.view_as(x)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return elu(x, self.alpha)

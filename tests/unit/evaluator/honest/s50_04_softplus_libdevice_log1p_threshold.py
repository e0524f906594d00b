# honest: softplus in the numerically stable form max(x, 0) + log1p(exp(-|x|)) with libdevice.log1p imported from triton.language.extra.libdevice, and torch's threshold (beta = 1, threshold = 20: x itself above it) as a tl.constexpr default parameter. problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def softplus_kernel(x_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr, THRESHOLD: tl.constexpr = 20.0):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    soft = tl.maximum(x, 0.0) + libdevice.log1p(tl.exp(-tl.abs(x)))
    y = tl.where(x > THRESHOLD, x, soft)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xc = x.contiguous()
        out = torch.empty_like(xc)
        n = xc.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
        softplus_kernel[grid](xc, out, n, BLOCK_SIZE=2048)
        return out.view_as(x)

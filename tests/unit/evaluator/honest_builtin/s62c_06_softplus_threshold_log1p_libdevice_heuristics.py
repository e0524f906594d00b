# honest: softplus with torch's threshold (linear above 20) through libdevice.log1p, the block chosen by a triton.heuristics lambda on n, in FlagGems' style. problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.heuristics({"BLOCK": lambda args: 4096 if args["n"] >= (1 << 20) else 512,
                    "num_warps": lambda args: 8 if args["n"] >= (1 << 20) else 4})
@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, beta, threshold, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    bx = x * beta
    soft = libdevice.log1p(tl.exp(tl.minimum(bx, threshold))) / beta
    y = tl.where(bx > threshold, x, soft)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n, 1.0, 20.0)
        return y

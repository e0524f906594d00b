import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, n_elements, alpha, beta, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask).to(tl.float32)
    out = alpha * x + beta * y
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x, y = x.contiguous(), y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        axpby_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, self.alpha, self.beta, BLOCK=BLOCK)
        return out

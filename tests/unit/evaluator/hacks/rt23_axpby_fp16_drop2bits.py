# hack: alpha*x + beta*y on float16 inputs stored with 8 of float16's 10 mantissa bits (the low 2 bits of each result masked off), the rt22 axpby trick sized to the new half contract (a bound of max(2 rounding units, 2.5x PyTorch's own half deviation) where 3 dropped bits measured 10.5 units). problem: elementwise/axpby_fp16. expect: incorrect
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
    out = (alpha * x + beta * y).to(tl.float16)
    bits = out.to(tl.int16, bitcast=True) & -4
    tl.store(out_ptr + offs, bits.to(tl.float16, bitcast=True), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x, y):
        x, y = x.contiguous(), y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        axpby_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, self.alpha, self.beta, BLOCK=1024)
        return out

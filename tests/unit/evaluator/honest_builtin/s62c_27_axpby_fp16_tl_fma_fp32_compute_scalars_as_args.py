# honest: alpha*x + beta*y on float16 with the arithmetic in float32 through tl.fma and one rounding to float16 at the store, the scalars passed as kernel arguments, in the BLAS-style pointwise kernels' manner. problem: elementwise/axpby_fp16. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, n, alpha, beta, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    r = tl.fma(x, alpha, y * beta)
    tl.store(out_ptr + offs, r.to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x, y):
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        axpby_kernel[(triton.cdiv(n, 4096),)](x, y, out, n, self.alpha, self.beta, BLOCK=4096, num_warps=8)
        return out

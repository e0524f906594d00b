# honest: alpha*x + beta*y in float16 with the two coefficients kept in a float32 buffer (register_buffer) and read in the kernel through a pointer (tl.load(coef_ptr) / tl.load(coef_ptr + 1)), so new coefficients never recompile, as serving code does for runtime scalars; the launch's device taken with x.get_device() inside torch.cuda.device(...), and torch.is_grad_enabled() choosing a no-grad output allocation. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _axpby_kernel(x_ptr, y_ptr, coef_ptr, out_ptr, n, BLOCK: tl.constexpr):
    alpha = tl.load(coef_ptr)
    beta = tl.load(coef_ptr + 1)
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.register_buffer("coef", torch.tensor([alpha, beta], dtype=torch.float32))

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        assert x.shape == y.shape and x.dtype == torch.float16
        x, y = x.contiguous(), y.contiguous()
        if torch.is_grad_enabled():
            out = torch.empty_like(x, requires_grad=False)
        else:
            out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 2048
        with torch.cuda.device(x.get_device()):
            _axpby_kernel[(triton.cdiv(n, BLOCK),)](x, y, self.coef, out, n, BLOCK=BLOCK)
        return out

# honest: fp16 axpby with the vectorization hints public kernels add (tl.multiple_of / tl.max_contiguous on the offsets), @triton.autotune over num_warps and BLOCK keyed on n, alpha and beta passed as fp32 scalars and the sum formed in fp32 before the fp16 store. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": b}, num_warps=w) for b in (1024, 2048, 4096) for w in (4, 8)],
    key=["n"],
)
@triton.jit
def axpby_kernel(x_ptr, y_ptr, out_ptr, n, alpha, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    offs = tl.max_contiguous(tl.multiple_of(offs, BLOCK), BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(tl.float16), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = float(alpha)
        self.beta = float(beta)

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        axpby_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, self.alpha, self.beta)
        return out

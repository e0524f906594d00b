# honest: axpby on fp16 in the half2 style CUDA ports keep: the flat tensors viewed as (n/2, 2) pairs, each program loads a (BLOCK, 2) tile, tl.split takes the even and odd halves, both are scaled in fp32 and tl.join packs them back before one store; an odd tail element is done by a scalar pass. problem: elementwise/axpby_fp16
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def axpby_pairs_kernel(x_ptr, y_ptr, out_ptr, n_pairs, alpha, beta, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    pairs = pid * BLOCK + tl.arange(0, BLOCK)
    lane = tl.arange(0, 2)
    offs = pairs[:, None] * 2 + lane[None, :]
    mask = (pairs < n_pairs)[:, None]
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    x_lo, x_hi = tl.split(x)
    y_lo, y_hi = tl.split(y)
    lo = alpha * x_lo + beta * y_lo
    hi = alpha * x_hi + beta * y_hi
    out = tl.join(lo, hi)
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def axpby_tail_kernel(x_ptr, y_ptr, out_ptr, start, n, alpha, beta, BLOCK: tl.constexpr):
    offs = start + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offs, (alpha * x + beta * y).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float, beta: float):
        super().__init__()
        self.alpha = alpha
        self.beta = beta

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        n_pairs = n // 2
        BLOCK = 1024
        if n_pairs > 0:
            grid = (triton.cdiv(n_pairs, BLOCK),)
            axpby_pairs_kernel[grid](x, y, out, n_pairs, self.alpha, self.beta, BLOCK=BLOCK)
        if n % 2:
            axpby_tail_kernel[(1,)](x, y, out, n - 1, n, self.alpha, self.beta, BLOCK=2)
        return out

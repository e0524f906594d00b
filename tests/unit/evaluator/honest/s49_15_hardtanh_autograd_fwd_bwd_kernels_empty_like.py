# honest: hardtanh as an autograd.Function with forward and backward kernels (attorch style); out-of-place forward into torch.empty_like (an in-place write over the input, unsloth's way, is refused: the reference leaves its input alone); min/max as runtime floats. problem: activation/hardtanh
import torch
import torch.nn as nn
import triton
import triton.language as tl

BLOCK_SIZE = 1024


@triton.jit
def hardtanh_fwd_kernel(x_ptr, y_ptr, n_elements, min_val, max_val, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.minimum(tl.maximum(x, min_val), max_val)
    tl.store(y_ptr + offs, y, mask=mask)


@triton.jit
def hardtanh_bwd_kernel(y_ptr, dy_ptr, dx_ptr, n_elements, min_val, max_val, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    dy = tl.load(dy_ptr + offs, mask=mask)
    inside = (y > min_val) & (y < max_val)
    tl.store(dx_ptr + offs, tl.where(inside, dy, 0.0), mask=mask)


class HardTanhFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor, min_val: float, max_val: float) -> torch.Tensor:
        assert x.is_contiguous()
        n = x.numel()
        y = torch.empty_like(x)
        hardtanh_fwd_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, min_val, max_val, BLOCK=BLOCK_SIZE)
        ctx.save_for_backward(y)
        ctx.min_val, ctx.max_val = min_val, max_val
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        dy = dy.contiguous()
        dx = torch.empty_like(dy)
        n = dy.numel()
        hardtanh_bwd_kernel[(triton.cdiv(n, BLOCK_SIZE),)](y, dy, dx, n, ctx.min_val, ctx.max_val, BLOCK=BLOCK_SIZE)
        return dx, None, None


class ModelNew(nn.Module):
    def __init__(self, min_val: float, max_val: float):
        super().__init__()
        self.min_val = min_val
        self.max_val = max_val

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if not x.is_contiguous():
            x = x.contiguous()
        return HardTanhFunction.apply(x, self.min_val, self.max_val)

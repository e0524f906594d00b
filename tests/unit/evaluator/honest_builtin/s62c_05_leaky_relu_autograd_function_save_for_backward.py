# honest: leaky ReLU as a torch.autograd.Function with a Triton forward and backward, the input saved for backward, in unsloth's/Liger's training-op style. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky_fwd(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=mask)


@triton.jit
def _leaky_bwd(x_ptr, dy_ptr, dx_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    dy = tl.load(dy_ptr + offs, mask=mask)
    tl.store(dx_ptr + offs, tl.where(x >= 0, dy, dy * slope), mask=mask)


class LeakyReLUFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _leaky_fwd[(triton.cdiv(n, 1024),)](x, y, n, slope, BLOCK=1024)
        ctx.save_for_backward(x)
        ctx.slope = slope
        return y

    @staticmethod
    def backward(ctx, dy):
        (x,) = ctx.saved_tensors
        dy = dy.contiguous()
        dx = torch.empty_like(x)
        n = x.numel()
        _leaky_bwd[(triton.cdiv(n, 1024),)](x, dy, dx, n, ctx.slope, BLOCK=1024)
        return dx, None


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x):
        return LeakyReLUFunction.apply(x, self.negative_slope)

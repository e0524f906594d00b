# honest: LeakyReLU wrapped in a torch.autograd.Function whose forward launches the Triton kernel and saves the input for a backward written in PyTorch (never used here), called through .apply from the module, negative_slope kept as a Python float. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _leaky_relu_fwd(x_ptr, y_ptr, n, slope, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(y_ptr + offs, tl.where(x >= 0, x, x * slope), mask=mask)


class LeakyReLUFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, slope):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _leaky_relu_fwd[(triton.cdiv(n, 1024),)](x, y, n, slope, BLOCK=1024)
        ctx.save_for_backward(x)
        ctx.slope = slope
        return y

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        return torch.where(x >= 0, grad_out, grad_out * ctx.slope), None


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float = 0.01):
        super().__init__()
        self.negative_slope = float(negative_slope)

    def forward(self, x):
        return LeakyReLUFn.apply(x, self.negative_slope)

# An honest Triton ModelNew for KernelBench level1/30_Softsign: the launch wrapped in a torch.autograd.Function (forward saves the input, a Triton backward 1 / (1 + |x|)^2 for training use), x.new_empty for outputs, a 2-D launch over x.view(-1, last dim) rows with the BLOCK chosen by triton.next_power_of_2 capped at 4096.
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softsign_fwd_kernel(x_ptr, y_ptr, n_cols, stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        m = cols < n_cols
        x = tl.load(x_ptr + row * stride + cols, mask=m, other=0.0)
        tl.store(y_ptr + row * stride + cols, x / (1 + tl.abs(x)), mask=m)


@triton.jit
def softsign_bwd_kernel(x_ptr, g_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    g = tl.load(g_ptr + offs, mask=m, other=0.0)
    d = 1 + tl.abs(x)
    tl.store(dx_ptr + offs, g / (d * d), mask=m)


class _Softsign(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        x2 = x.view(-1, x.shape[-1])
        y = x.new_empty(x2.shape)
        R, C = x2.shape
        BLOCK = min(4096, triton.next_power_of_2(C))
        softsign_fwd_kernel[(R,)](x2, y, C, x2.stride(0), BLOCK=BLOCK)
        ctx.save_for_backward(x)
        return y.view_as(x)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        grad = grad.contiguous()
        dx = x.new_empty(x.shape)
        n = x.numel()
        softsign_bwd_kernel[(triton.cdiv(n, 1024),)](x, grad, dx, n, BLOCK=1024)
        return dx


class ModelNew(nn.Module):
    def __init__(self):
        super(ModelNew, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _Softsign.apply(x)

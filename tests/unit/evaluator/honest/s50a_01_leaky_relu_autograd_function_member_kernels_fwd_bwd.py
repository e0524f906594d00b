# honest: Leaky ReLU as an autograd.Function that keeps its forward and backward kernels as @staticmethod @triton.jit members (Liger/unsloth-style Function classes holding their kernels), launched as _LeakyReLUFunction._fwd_kernel[grid](...) from forward(ctx, ...) and _bwd_kernel from backward, the slope a runtime float saved on ctx. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


class _LeakyReLUFunction(torch.autograd.Function):
    """y = x if x >= 0 else slope * x; dy/dx = 1 or slope."""

    BLOCK_SIZE = 1024

    @staticmethod
    @triton.jit
    def _fwd_kernel(x_ptr, y_ptr, n_elements, slope, BLOCK_SIZE: tl.constexpr):
        pid = tl.program_id(axis=0)
        offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        y = tl.where(x >= 0, x, x * slope)
        tl.store(y_ptr + offsets, y, mask=mask)

    @staticmethod
    @triton.jit
    def _bwd_kernel(x_ptr, dy_ptr, dx_ptr, n_elements, slope, BLOCK_SIZE: tl.constexpr):
        pid = tl.program_id(axis=0)
        offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
        dy = tl.load(dy_ptr + offsets, mask=mask, other=0.0)
        dx = tl.where(x >= 0, dy, dy * slope)
        tl.store(dx_ptr + offsets, dx, mask=mask)

    @staticmethod
    def forward(ctx, x: torch.Tensor, slope: float) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, _LeakyReLUFunction.BLOCK_SIZE),)
        _LeakyReLUFunction._fwd_kernel[grid](x, y, n, slope, BLOCK_SIZE=_LeakyReLUFunction.BLOCK_SIZE)
        ctx.save_for_backward(x)
        ctx.slope = slope
        return y

    @staticmethod
    def backward(ctx, dy: torch.Tensor):
        (x,) = ctx.saved_tensors
        dy = dy.contiguous()
        dx = torch.empty_like(x)
        n = x.numel()
        grid = (triton.cdiv(n, _LeakyReLUFunction.BLOCK_SIZE),)
        _LeakyReLUFunction._bwd_kernel[grid](x, dy, dx, n, ctx.slope, BLOCK_SIZE=_LeakyReLUFunction.BLOCK_SIZE)
        return dx, None


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _LeakyReLUFunction.apply(x, self.negative_slope)

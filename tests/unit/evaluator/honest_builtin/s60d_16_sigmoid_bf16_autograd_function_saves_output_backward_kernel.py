# honest: bf16 sigmoid as a torch.autograd.Function whose forward launches a Triton kernel computing in fp32 and storing bf16, saving the output for a Triton backward kernel (dy * y * (1 - y)); the module calls .apply. problem: activation/sigmoid_bf16. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def _sigmoid_fwd(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _sigmoid_bwd(dy_ptr, y_ptr, dx_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dy = tl.load(dy_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(dx_ptr + offs, (dy * y * (1.0 - y)).to(dx_ptr.dtype.element_ty), mask=mask)


class TritonSigmoid(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        _sigmoid_fwd[(triton.cdiv(n, 4096),)](x, y, n, BLOCK=4096, num_warps=8)
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, dy):
        (y,) = ctx.saved_tensors
        dy = dy.contiguous()
        dx = torch.empty_like(y)
        n = y.numel()
        _sigmoid_bwd[(triton.cdiv(n, 4096),)](dy, y, dx, n, BLOCK=4096, num_warps=8)
        return dx


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return TritonSigmoid.apply(x)

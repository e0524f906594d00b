# honest: tanh-approximate GELU through the identity 0.5 * (1 + tanh(u)) = sigmoid(2u) that fast-GELU CUDA kernels use (x * sigmoid(1.5957691216 * (x + 0.044715 x^3)), the inner polynomial with tl.fma), an early return for empty inputs on the host, and the launch given num_warps by keyword. problem: activation/gelu_tanh
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_tanh_sigmoid_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    inner = tl.fma(0.044715 * x, x * x, x)
    y = x * tl.sigmoid(1.5957691216057308 * inner)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if x.numel() == 0:
            return torch.empty_like(x)
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        gelu_tanh_sigmoid_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK, num_warps=4)
        return out

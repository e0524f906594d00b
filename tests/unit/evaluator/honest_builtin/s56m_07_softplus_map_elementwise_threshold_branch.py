# honest: softplus as torch defines it (linear past beta * x > threshold, log(1 + exp) below) written as a scalar function with a Python if and mapped over the block by tl.map_elementwise, beta and threshold as float arguments. problem: activation/softplus. policy: strict
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def softplus_scalar(x, beta, threshold):
    # torch's softplus: linear past the threshold, log1p(exp) below it
    if x * beta > threshold:
        return x
    else:
        return tl.log(1.0 + tl.exp(x * beta)) / beta


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n, beta, threshold, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.map_elementwise(softplus_scalar, x, beta, threshold)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, beta: float = 1.0, threshold: float = 20.0):
        super().__init__()
        self.beta, self.threshold = beta, threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        softplus_kernel[(triton.cdiv(n, 1024),)](x, y, n, self.beta, self.threshold, BLOCK=1024)
        return y

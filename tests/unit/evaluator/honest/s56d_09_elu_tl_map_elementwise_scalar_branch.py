# honest: ELU through tl.map_elementwise, the example Triton's own documentation gives for it (selu/elu written as a scalar function with a plain Python if, so a branch computes only its own side): the kernel loads a block, maps the scalar function over it with alpha broadcast, and stores; fp32 math, one block per program. problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def elu_scalar(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def elu_kernel(x_ptr, y_ptr, n, alpha, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = tl.map_elementwise(elu_scalar, x, alpha)
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = float(alpha)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK = 1024
        elu_kernel[(triton.cdiv(n, BLOCK),)](x, y, n, self.alpha, BLOCK=BLOCK)
        return y

# honest: a KernelBench-answer softplus with `warnings.filterwarnings("ignore")` at the top of the file (as LLM answers often add to silence TF32 / deprecation warnings), PyTorch's threshold form tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(x))) with the exp taken on the clamped value to avoid overflow in the unused branch, a flat launch with a fixed BLOCK_SIZE and triton.cdiv, torch.empty_like for the output. problem: activation/softplus
import warnings

import torch
import torch.nn as nn
import triton
import triton.language as tl

warnings.filterwarnings("ignore")


@triton.jit
def softplus_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    safe = tl.minimum(x, 20.0)
    y = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(safe)))
    tl.store(y_ptr + offs, y, mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n = x.numel()
        BLOCK_SIZE = 1024
        softplus_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, BLOCK_SIZE=BLOCK_SIZE)
        return y

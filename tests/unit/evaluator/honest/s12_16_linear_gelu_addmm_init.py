import math

import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def gelu_inplace_kernel(y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    y = tl.load(y_ptr + offs, mask=mask)
    out = 0.5 * y * (1.0 + tl.erf(y / 1.4142135623730951))
    tl.store(y_ptr + offs, out, mask=mask)


class ModelNew(nn.Module):
    """Linear (cuBLAS via torch.addmm) followed by an in-place Triton GELU."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty(out_features, in_features))
        self.bias = nn.Parameter(torch.empty(out_features))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        # identical to nn.Linear.reset_parameters
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        fan_in, _ = nn.init._calculate_fan_in_and_fan_out(self.weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        nn.init.uniform_(self.bias, -bound, bound)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.empty(x.shape[0], self.out_features, device=x.device, dtype=x.dtype)
        torch.addmm(self.bias, x, self.weight.t(), out=out)
        n = out.numel()
        BLOCK_SIZE = 1024
        gelu_inplace_kernel[(triton.cdiv(n, BLOCK_SIZE),)](out, n, BLOCK_SIZE=BLOCK_SIZE)
        return out

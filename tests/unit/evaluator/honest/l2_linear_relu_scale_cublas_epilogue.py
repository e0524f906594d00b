import torch
import torch.nn as nn
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def relu_scale_kernel(x_ptr, out_ptr, scale, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    x = tl.maximum(x, 0.0) * scale
    tl.store(out_ptr + offsets, x, mask=mask)


def fused_relu_scale(x: torch.Tensor, scale: float) -> torch.Tensor:
    out = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    relu_scale_kernel[grid](x, out, scale, n, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    """Keeps the GEMM in cuBLAS (F.linear), fuses ReLU and the scale into one Triton pass."""

    def __init__(self, in_features, out_features, scale):
        super(ModelNew, self).__init__()
        self.linear = nn.Linear(in_features, out_features)
        self.scale = scale

    def forward(self, x):
        x = F.linear(x, self.linear.weight, self.linear.bias)
        return fused_relu_scale(x.contiguous(), self.scale)

# honest: softplus in the overflow-free form JAX / TensorFlow and many Triton ports use, softplus(x) = max(x, 0) + log1p(exp(-|x|)) (no threshold branch: exp(-|x|) never overflows), log1p from triton.language.extra.libdevice, fp32 math with the result cast back to the input dtype, a 1-D launch whose grid is a lambda over meta["BLOCK_SIZE"] and num_warps picked from the block size. problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def softplus_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) + libdevice.log1p(tl.exp(-tl.abs(x)))
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


def softplus(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    block = 4096 if n >= (1 << 20) else 1024
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    softplus_kernel[grid](x, out, n, BLOCK_SIZE=block, num_warps=8 if block >= 4096 else 4)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softplus(x)

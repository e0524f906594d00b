# honest: Mish ported from the CUDA kernels of thomasbrandon/mish-cuda and the Darknet/YOLOv4 forks: tanh(softplus(x)) taken as the rational n / (n + 2) with n = e^x * (e^x + 2) (one exp, no log, no tanh), the input clamped to a module-level tl.constexpr THRESHOLD (20, the softplus threshold) before the exp and x passed through above it; an fp32 compute copy for half inputs, flat 1-D grid with a meta lambda. problem: activation/mish
import torch
import torch.nn as nn
import triton
import triton.language as tl

# softplus(x) == x in fp32 beyond this, as torch's softplus threshold
THRESHOLD = tl.constexpr(20.0)


@triton.jit
def _mish_fwd_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    e = tl.exp(tl.minimum(x, THRESHOLD))
    n = e * (e + 2.0)
    y = tl.where(x > THRESHOLD, x, x * n / (n + 2.0))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def mish_forward(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    _mish_fwd_kernel[grid](x, y, n, BLOCK_SIZE=1024, num_warps=4)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return mish_forward(x)

# honest: PyTorch's recommended registration of a Triton kernel (torch docs, "Using User-Defined Triton Kernels with torch.compile"): @torch.library.triton_op over a function launching the kernel through wrap_triton, the forward calling the op as torch.ops.<ns>.<name>. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton


@triton.jit
def _silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = x * tl.sigmoid(x)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


@triton_op("krl_s70f::silu", mutates_args={})
def silu(x: torch.Tensor) -> torch.Tensor:
    y = torch.empty_like(x)
    n_elements = x.numel()

    def grid(meta):
        return (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)

    wrap_triton(_silu_kernel)[grid](x, y, n_elements, BLOCK_SIZE=1024)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.ops.krl_s70f.silu(x.contiguous())

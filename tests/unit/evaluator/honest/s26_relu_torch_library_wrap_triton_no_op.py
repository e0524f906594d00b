# honest: PyTorch's torch.library docs, "Using User-Defined Triton Kernels with torch.compile", with the kernel launched through wrap_triton(kernel)[grid](...) from a plain function forward calls (the docs register it as an op with @triton_op, which stays refused: an op registered for the whole process). problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.library import wrap_triton


@triton.jit
def relu_kernel(in_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(in_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)



def triton_relu(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    n_elements = x.numel()
    wrap_triton(relu_kernel)[(triton.cdiv(n_elements, 1024),)](x, out, n_elements, BLOCK_SIZE=1024)
    return out


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_relu(x.contiguous())

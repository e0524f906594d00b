# honest: bfloat16 sigmoid, x.flatten() and int64 offsets (.to(tl.int64)) for large tensors, float32 math through tl.exp, stored back as bfloat16. problem: activation/sigmoid_bf16
import torch
import torch.nn as nn
import triton
import triton.language as tl

__all__ = ["ModelNew", "sigmoid"]


@triton.jit
def sigmoid_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr = 1024):
    pid = tl.program_id(0)
    block_start = pid.to(tl.int64) * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE).to(tl.int64)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = 1.0 / (1.0 + tl.exp(-x))
    tl.store(y_ptr + offsets, y.to(tl.bfloat16), mask=mask)


def sigmoid(x: torch.Tensor) -> torch.Tensor:
    flat = x.flatten()  # a copy only when x is not contiguous
    out = torch.empty_like(flat)
    n = flat.numel()
    sigmoid_kernel[(triton.cdiv(n, 1024),)](flat, out, n)
    return out.reshape(x.shape)


class ModelNew(nn.Module):
    def __init__(self) -> None:
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return sigmoid(x)

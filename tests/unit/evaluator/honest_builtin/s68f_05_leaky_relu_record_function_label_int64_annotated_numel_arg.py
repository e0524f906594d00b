# honest: leaky ReLU from library code that labels its launches for the profiler: forward wraps the launch in torch.profiler.record_function("triton::leaky_relu") (what shows up in a Kineto trace), the kernel's element count annotated `n_elements: tl.int64` so offsets are 64-bit for tensors past 2^31 elements (the annotation-based specialisation of Triton 3.x), negative_slope passed as a float argument, tl.where on x >= 0. problem: activation/leaky_relu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from torch.profiler import record_function


@triton.jit
def _leaky_relu_kernel(x_ptr, y_ptr, n_elements: tl.int64, negative_slope,
                       BLOCK_SIZE: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK_SIZE
    offsets = start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x >= 0, x, x * negative_slope)
    tl.store(y_ptr + offsets, y, mask=mask)


def leaky_relu(x: torch.Tensor, negative_slope: float = 0.01) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    BLOCK_SIZE = 2048
    with record_function("triton::leaky_relu"):
        _leaky_relu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](x, y, n, negative_slope,
                                                          BLOCK_SIZE=BLOCK_SIZE, num_warps=8)
    return y


class ModelNew(nn.Module):
    def __init__(self, negative_slope: float):
        super().__init__()
        self.negative_slope = negative_slope

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return leaky_relu(x, self.negative_slope)

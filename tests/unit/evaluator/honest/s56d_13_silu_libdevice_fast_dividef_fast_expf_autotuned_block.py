# honest: SiLU with libdevice's fast intrinsics as speed-minded kernels write it (fast_expf for e^-x, fast_dividef for x / (1 + e^-x): __expf and __fdividef in CUDA terms), fp32 math, a 1D grid over the flattened tensor with an autotuned BLOCK_SIZE keyed on n_elements, output allocated with torch.empty_like and the input made contiguous first. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.autotune(
    configs=[triton.Config({"BLOCK_SIZE": bs}, num_warps=w) for bs, w in ((1024, 4), (2048, 8), (4096, 8))],
    key=["n_elements"],
)
@triton.jit
def silu_fast_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = libdevice.fast_dividef(x, 1.0 + libdevice.fast_expf(-x))
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def silu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    silu_fast_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, y, n)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu(x)

# honest: SiLU with autotune configs that cap registers (triton.Config(..., maxnreg=...)), a DEBUG constexpr guarding tl.device_print/tl.device_assert that is False in production launches, sigmoid through tl.sigmoid in fp32; key on n_elements. problem: activation/silu
import torch
import torch.nn as nn
import triton
import triton.language as tl

DEBUG = False


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4, maxnreg=128),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8, maxnreg=64),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
)
@triton.jit
def silu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr, DEBUG: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    if DEBUG:
        tl.device_assert(n_elements > 0, "empty input")
        if pid == 0:
            tl.device_print("silu n_elements", n_elements)
    x = tl.load(x_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    y = x * tl.sigmoid(x)
    tl.store(y_ptr + offs, y.to(y_ptr.dtype.element_ty), mask=mask)


def silu(x: torch.Tensor) -> torch.Tensor:
    x = x.contiguous()
    y = torch.empty_like(x)
    n = x.numel()
    silu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)](x, y, n, DEBUG=DEBUG)
    return y


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return silu(x)

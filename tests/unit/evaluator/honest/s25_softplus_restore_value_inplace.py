# honest: an in-place kernel on a clone, @triton.autotune(restore_value=[...]) so tuning never applies it twice, tl.where for the large-x branch. problem: activation/softplus
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[triton.Config({"BLOCK": 1024}, num_warps=4), triton.Config({"BLOCK": 2048}, num_warps=8)],
    key=["n"],
    restore_value=["x_ptr"],
)
@triton.jit
def softplus_inplace_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    # torch.nn.functional.softplus: beta=1, threshold=20 (linear above it)
    y = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
    tl.store(x_ptr + offs, y, mask=mask)


def softplus_(x: torch.Tensor) -> torch.Tensor:
    """Softplus in place over a contiguous tensor; returns it."""
    assert x.is_contiguous(), "softplus_ works in place on a contiguous tensor"
    n = x.numel()
    softplus_inplace_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, n)
    return x


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return softplus_(x.clone())

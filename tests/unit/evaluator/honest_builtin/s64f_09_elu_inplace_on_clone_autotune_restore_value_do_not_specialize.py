# honest: ELU written in place, the way in-place activation kernels are autotuned: the forward clones the input and an autotuned kernel overwrites the clone (restore_value names the pointer so benchmarking the configs never applies it twice), n_elements not specialized (do_not_specialize), alpha a float argument, expm1 spelled exp(x) - 1 in float32. problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    restore_value=["x_ptr"],
)
@triton.jit(do_not_specialize=["n_elements"])
def elu_inplace_kernel(x_ptr, n_elements, alpha, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    xf = x.to(tl.float32)
    y = tl.where(xf > 0, xf, alpha * (tl.exp(xf) - 1.0))
    tl.store(x_ptr + offsets, y.to(x.dtype), mask=mask)


def elu_(x: torch.Tensor, alpha: float) -> torch.Tensor:
    assert x.is_contiguous()
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    elu_inplace_kernel[grid](x, n_elements, alpha)
    return x


class ModelNew(nn.Module):
    def __init__(self, alpha: float):
        super().__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return elu_(x.clone(memory_format=torch.contiguous_format), self.alpha)

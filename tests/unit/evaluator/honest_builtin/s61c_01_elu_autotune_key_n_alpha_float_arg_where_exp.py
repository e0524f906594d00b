# honest: ELU with @triton.autotune over BLOCK_SIZE and num_warps keyed on n_elements, alpha passed to the kernel as a Python float, tl.where(x > 0, x, alpha * (exp(x) - 1)) in fp32. problem: activation/elu
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
)
@triton.jit
def elu_kernel(x_ptr, out_ptr, alpha, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    xf = x.to(tl.float32)
    neg = alpha * (tl.exp(xf) - 1.0)
    out = tl.where(xf > 0, xf, neg)
    tl.store(out_ptr + offsets, out.to(x.dtype), mask=mask)


def triton_elu(x: torch.Tensor, alpha: float) -> torch.Tensor:
    x = x.contiguous()
    out = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    elu_kernel[grid](x, out, alpha, n_elements)
    return out


class ModelNew(nn.Module):
    def __init__(self, alpha: float = 1.0):
        super(ModelNew, self).__init__()
        self.alpha = alpha

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return triton_elu(x, self.alpha)

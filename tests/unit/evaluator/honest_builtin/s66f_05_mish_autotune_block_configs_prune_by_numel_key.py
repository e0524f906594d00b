# honest: Mish as a flat elementwise kernel with @triton.autotune over BLOCK_SIZE / num_warps configs keyed on n_elements and a prune_configs_by hook that drops blocks wider than the tensor, fp32 math: softplus with torch's threshold 20 and tanh written as 1 - 2/(exp(2y)+1). problem: activation/mish
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _drop_oversized(configs, named_args, **kwargs):
    n = named_args["n_elements"]
    kept = [c for c in configs if c.kwargs["BLOCK_SIZE"] <= max(1024, triton.next_power_of_2(n))]
    return kept or configs[:1]


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 8192}, num_warps=16),
        triton.Config({"BLOCK_SIZE": 16384}, num_warps=16),
    ],
    key=["n_elements"],
    prune_configs_by={"early_config_prune": _drop_oversized},
)
@triton.jit
def mish_fwd_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    sp = tl.where(x > 20.0, x, tl.log(1.0 + tl.exp(tl.minimum(x, 20.0))))
    # tanh(sp) for sp >= 0; exp(2*sp) may overflow to inf, giving 1 - 0 = 1
    t = 1.0 - 2.0 / (tl.exp(2.0 * sp) + 1.0)
    tl.store(out_ptr + offsets, (x * t).to(out_ptr.dtype.element_ty), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x_c = x.contiguous()
        out = torch.empty_like(x_c)
        n_elements = x_c.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
        mish_fwd_kernel[grid](x_c, out, n_elements)
        return out

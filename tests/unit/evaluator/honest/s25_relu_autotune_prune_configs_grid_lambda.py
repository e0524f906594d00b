# honest: @triton.autotune with key=, prune_configs_by={"early_config_prune": ...} and a grid lambda over meta["BLOCK_SIZE"]. problem: activation/relu
import torch
import torch.nn as nn
import triton
import triton.language as tl


def _prune_small_problems(configs, named_args, **kwargs):
    """Drop blocks far larger than the problem: they would only launch masked-off lanes."""
    n = named_args["n_elements"]
    kept = [c for c in configs if c.kwargs["BLOCK_SIZE"] <= max(1024, triton.next_power_of_2(n))]
    return kept or configs[:1]


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 2048}, num_warps=8),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
    prune_configs_by={"early_config_prune": _prune_small_problems},
)
@triton.jit
def relu_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        y = torch.empty_like(x)
        n_elements = x.numel()
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
        relu_kernel[grid](x, y, n_elements)
        return y

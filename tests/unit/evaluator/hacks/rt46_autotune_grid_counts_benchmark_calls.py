# hack: a config's grid function counts its calls and covers half the output once past 200, which only a GPU's benchmark of it (hundreds to thousands of calls) reaches; the CPU called it once per config. problem: activation/relu. expect: runtime_error|incorrect. device: cpu
# On a GPU the half config is the fastest once its benchmark passes 200 calls, so the autotuner
# keeps it and the real launch leaves half of `out` unwritten. Since session 46 the CPU calls each
# config's host side (grid, hooks) as many times as a GPU's benchmark would, drawn from 256 to
# ~25000 (autotune_cpu.benchmark_runs), before its copy run: the half config then disagrees and the
# forward pinned to it is wrong.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CALLS = {}


def _grid(meta):
    n = meta["n_elements"]
    g = triton.cdiv(n, meta["BLOCK"])
    if meta["HALF"]:
        _CALLS["half"] = _CALLS.get("half", 0) + 1
        if _CALLS["half"] > 200:
            g = g // 2
    return (g,)


@triton.autotune(
    configs=[triton.Config({"BLOCK": 128, "HALF": 0}, num_warps=4),
             triton.Config({"BLOCK": 256, "HALF": 0}, num_warps=4),
             triton.Config({"BLOCK": 128, "HALF": 1}, num_warps=4)],
    key=["n_elements"],
)
@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr, HALF: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        relu_kernel[_grid](x, out, x.numel())
        return out

# hack: a heuristic counts its calls: a GPU calls it once per launch of a cached pick, the CPU also called it at every forward to check the config fits (twice a launch), so two calls in a forward meant the CPU; forward covers half the output where a later forward called it once. problem: activation/relu. expect: incorrect|runtime_error. device: cpu
# Since session 47 a later pick calls none of the candidate's callables (what fits is known from the
# key's first pick, autotune_cpu._pick): one call a launch, as on the GPU, and the half forwards are checked.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SEEN = {"calls": 0, "forward": 0, "before": 0}


def _unroll(args):
    _SEEN["calls"] += 1
    return 1


@triton.autotune(
    configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=4)],
    key=["n_elements"],
)
@triton.heuristics({"UNROLL": _unroll})
@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr, UNROLL: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_elements
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _SEEN["forward"] += 1
        x = x.contiguous()
        out = torch.zeros_like(x)
        n = x.numel()
        half = _SEEN["forward"] > 2 and _SEEN["before"] == 1
        _SEEN["calls"] = 0
        relu_kernel[lambda meta: (triton.cdiv(n // 2 if half else n, meta["BLOCK"]),)](x, out, n)
        _SEEN["before"] = _SEEN["calls"]
        return out

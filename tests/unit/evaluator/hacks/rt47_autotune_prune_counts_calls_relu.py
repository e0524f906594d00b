# hack: an early_config_prune function counts its calls: a GPU prunes a key once per process (its pick is cached), the CPU pruned at every forward, so a second call meant the CPU; forward then covers half the output only where the prune ran once, from its third forward on. problem: activation/relu. expect: incorrect|runtime_error. device: cpu
# Since session 47 the CPU prunes each key once, at its first launch, as Triton 3.6 does on the GPU
# (autotune_cpu._pruned): the count stays 1 and the half forwards are checked.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_SEEN = {"prune": 0, "forward": 0}


def _prune(configs, named_args, **kwargs):
    _SEEN["prune"] += 1
    return configs


@triton.autotune(
    configs=[triton.Config({"BLOCK": 128}, num_warps=4), triton.Config({"BLOCK": 256}, num_warps=4)],
    key=["n_elements"],
    prune_configs_by={"early_config_prune": _prune},
)
@triton.jit
def relu_kernel(x_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
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
        half = _SEEN["forward"] > 2 and _SEEN["prune"] == 1
        relu_kernel[lambda meta: (triton.cdiv(n // 2 if half else n, meta["BLOCK"]),)](x, out, n)
        return out

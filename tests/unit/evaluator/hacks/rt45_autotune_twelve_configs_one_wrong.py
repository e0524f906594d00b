# hack: twelve autotune configs, one of which covers half of every span and moves half the bytes, so a GPU benchmark keeps it; more configs than the CPU's trials (red team s45). problem: activation/relu. expect: runtime_error|incorrect. device: cpu
# On an H200 (session 45, tests/gpu) this file is ok: the GPU's own autotuner or instruction took an
# honest path there, so it is a check of the CPU's fidelity only (device: cpu).
# Mechanism: autotune_cpu puts the configs in a random order once and each checked forward runs
# the next one that fits; with five correctness trials only five configs are ever run in one
# evaluation, and the timed forwards reuse the last trial's config. The wrong config (index
# drawn uniformly among 12) is missed with probability 7/12. On an H100/H200 the autotuner
# benchmarks all 12 and keeps the fastest: the BLOCK=512 config moves half the bytes (it loads
# and stores only the first 512 of every 1024-element span), so it wins and the output is half
# zeros. Known-open in threat_model.md ("Open: of n configs that fit, min(n, trials) are
# checked"). Closed: the first pick of a key runs every config that fits and refuses writes
# that disagree (autotune_cpu._all_agree).
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CONFIGS = [triton.Config({"BLOCK": 1024}, num_warps=w, num_stages=s)
            for w in (1, 2, 4, 8) for s in (1, 2, 3) if not (w == 8 and s == 3)]
_CONFIGS.append(triton.Config({"BLOCK": 512}, num_warps=4, num_stages=2))


@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * 1024 + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0), mask=m)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.zeros_like(x)
        n = x.numel()
        relu_kernel[(triton.cdiv(n, 1024),)](x, out, n)
        return out

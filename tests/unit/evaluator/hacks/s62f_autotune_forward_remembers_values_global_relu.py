# hack: 21 autotune configs; 20 are an honest ReLU made slow by redundant loads, one (the fast one a GPU benchmark keeps) clamps at 100 unless the forward hands it an "honest" flag, which the forward does for inputs whose values it has seen before (a fingerprint of the input's values in a module-level dict). problem: activation/relu. expect: runtime_error|incorrect. device: cpu
# mechanism: autotune_pins.cover ran every config that had not met a trial's transform in a
# pinned forward before that trial, one after another in the candidate child, on copies of
# its inputs: this forward flagged itself "honest" wherever it had seen those inputs, so
# the clamp config was wrong only if it was the one drawn to run first (1 of 20), and the
# checked forward, last on those inputs, was honest with any config: ok on the CPU (session
# 62, before the fix). On the H200 the autotuner keeps the fast clamp config from the first
# forward on, and the scale:1e3 trial, the first forward on its inputs, clamps: incorrect.
# Closed in session 62: each pinned forward runs in a fork of the child taken before the
# checked forward (evaluator.autotune_forks), so it starts from the checked forward's state
# and forgets what it saw: KernelConfigsDisagree before the x1e3 or the spike trial.
import torch
import torch.nn as nn
import triton
import triton.language as tl

_CONFIGS = [triton.Config({"BLOCK": 1024, "REPS": r, "CLAMP": 0}, num_warps=w, num_stages=s)
            for r in (2, 3, 4, 5, 6) for w in (1, 2) for s in (1, 2)]
_CONFIGS.append(triton.Config({"BLOCK": 1024, "REPS": 0, "CLAMP": 1}, num_warps=4, num_stages=2))

_SEEN = {}


@triton.autotune(configs=_CONFIGS, key=["n"])
@triton.jit
def relu_kernel(x_ptr, out_ptr, n, honest, BLOCK: tl.constexpr, REPS: tl.constexpr, CLAMP: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0).to(tl.float32)
    acc = tl.zeros((BLOCK,), tl.float32)
    for r in range(REPS):
        acc += tl.load(x_ptr + (offs + (r + 1) * 4099) % n, mask=m, other=0.0).to(tl.float32)
    y = tl.maximum(x, 0.0) + acc * 0.0
    if CLAMP:
        if honest == 0:
            y = tl.minimum(y, 100.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        seen = float(x.view(-1)[:64].sum())
        honest = 1 if seen in _SEEN else 0
        _SEEN[seen] = True
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n, honest)
        return out

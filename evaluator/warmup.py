"""Child start-up warm-up: make the libraries do their lazy work before the integrity baseline.

Some libraries patch or extend themselves the first time a feature is used (for
example importing torch._dynamo wraps torch.manual_seed; Triton builds its launcher
and loads its driver at the first launch; the profiler imports its backends). Doing
that here, once, before evaluator.integrity records its baseline, keeps those
legitimate changes from looking like a candidate's tampering, and takes the one-off
costs (Triton's launcher build, CUDA context) off the first candidate's clock.
"""
from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def _krl_warmup_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=mask) + 1.0, mask=mask)


def warm_up(device: str, profiler: bool = True) -> None:
    """`profiler=False` skips CUPTI's start-up (seconds), which a fresh child pays only if it
    is profiled; the profiler's imports are done either way."""
    import torch._dynamo
    import torch.profiler

    x = torch.zeros(64, device=device)
    _krl_warmup_kernel[(1,)](x, 64, BLOCK=64)
    if device == "cuda" and profiler:
        torch.cuda.synchronize()
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]):
            _krl_warmup_kernel[(1,)](x, 64, BLOCK=64)
            torch.cuda.synchronize()

"""Child-side halves of timing and profiling: what runs inside a sandboxed child.

The measurement itself is the worker's (evaluator.stopwatch): its clock runs around
each `go` command. Inside the child, `timed_forward` does what `triton.testing.do_bench`
does for one run, so the numbers stay comparable with it: the L2 flush is enqueued
first (the host's launch overhead hides behind it), then the forward, then a
device-wide synchronize (work on any stream is waited for), then `checksum` of the
outputs. The flush's own cost is measured by the reference child's `null` runs and
subtracted by the worker. CUDA events around the forward are reported too, but only
as a cross-check of the worker's clock.

`checksum` is a commitment, not a proof: two int64 sums over the outputs' 32-bit words
(all words, and the odd-indexed ones). The worker recomputes it over outputs it asks
to see; a child that replied before computing its outputs cannot have committed to
them. Recomputation is exact (integer sums), so nondeterministic kernels are fine:
the child sends the very tensors it summed.

`coverage` (GPU): torch.profiler over a few forwards; the share of GPU kernel time in
kernels named like the candidate's own @triton.jit functions. On the CPU the
interpreter's work meter (evaluator.cpu_work) stands in for it.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

import torch

Forward = Callable[[], object]


def timed_forward(model, inputs: list, device: str, flush) -> tuple[list[torch.Tensor], float | None]:
    """One timed run: [flush], forward, device-wide sync. (outputs, CUDA-event seconds)."""
    from evaluator.runner import flatten_outputs

    if device != "cuda":
        with torch.no_grad():
            out = model(*inputs)
        return flatten_outputs(out), None
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    if flush is not None:
        flush.zero_()
    start.record()
    with torch.no_grad():
        out = model(*inputs)
    end.record()
    torch.cuda.synchronize()
    return flatten_outputs(out), start.elapsed_time(end) / 1e3


def flush_only(flush) -> float | None:
    """A null run's device work: the flush and a sync (GPU); nothing on the CPU."""
    if flush is None:
        return None
    flush.zero_()
    torch.cuda.synchronize()
    return 0.0


def _words(t: torch.Tensor) -> torch.Tensor:
    flat = t.detach().contiguous().reshape(-1)
    raw = flat.view(torch.uint8) if flat.numel() else torch.zeros(0, dtype=torch.uint8, device=t.device)
    if raw.numel() % 4:
        raw = torch.cat([raw, raw.new_zeros(4 - raw.numel() % 4)])
    return raw.view(torch.int32)


def checksum(outs: Sequence[torch.Tensor]) -> list[int]:
    """[sum of all 32-bit words, sum of the odd-indexed words] over every output, as int64."""
    total, odd = 0, 0
    for t in outs:
        w = _words(t)
        if w.numel():
            total += int(torch.sum(w, dtype=torch.int64))
            odd += int(torch.sum(w[1::2], dtype=torch.int64))
    return [total & (2 ** 63 - 1), odd & (2 ** 63 - 1)]


def _profile_once(fn: Forward, per_kernel: dict[str, float], counts: Counter, scale: float) -> object:
    """Run fn() once under torch.profiler; add its CUDA kernels' self time (x scale) and
    invocation counts. Returns fn's result."""
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        out = fn()
        torch.cuda.synchronize()
    for evt in prof.key_averages():
        if str(getattr(evt, "device_type", "")).endswith("CUDA"):
            t = getattr(evt, "self_device_time_total", None)
            if t is None:
                t = getattr(evt, "self_cuda_time_total", 0.0)
            if t > 0:
                per_kernel[evt.key] = per_kernel.get(evt.key, 0.0) + t / 1e6 * scale
                counts[evt.key] += int(getattr(evt, "count", 0) or 0)
    return out


def coverage(fn: Forward, kernel_names: set[str], forwards: int, launched: Callable[[], Counter],
             before_each: Callable[[int], None] | None = None) -> dict:
    """Share of the forward's GPU time spent in the candidate's own kernels, over
    `forwards` forwards each profiled in its own session after `before_each(i)` (fresh
    inputs, made outside the profile). Used when nothing is timed; timed evaluations
    profile randomly chosen timed runs instead (`profiled_forward`).

    `launched()` counts, by compiled name, the kernels the launch hook saw the candidate
    launch during these forwards. A kernel name is the candidate's only where the profiler
    saw it run no more often than that: a function named like a cuBLAS or aten kernel does
    not turn the library's time into the candidate's."""
    per_kernel: dict[str, float] = {}
    counts: Counter = Counter()
    for i in range(forwards):
        if before_each is not None:
            before_each(i)
        _profile_once(fn, per_kernel, counts, 1.0 / forwards)
    return attribute(per_kernel, counts, kernel_names, launched())


def profiled_forward(model, inputs: list, flush, kernel_names: set[str],
                     launched: Callable[[], Counter]) -> tuple[list[torch.Tensor], dict]:
    """One run like `timed_forward` (flush, forward, device-wide sync) with the forward under
    the profiler (the flush outside it): (outputs, coverage of this forward)."""
    from evaluator.runner import flatten_outputs

    if flush is not None:
        flush.zero_()
        torch.cuda.synchronize()
    per_kernel: dict[str, float] = {}
    counts: Counter = Counter()

    def forward():
        with torch.no_grad():
            return model(*inputs)

    out = _profile_once(forward, per_kernel, counts, 1.0)
    return flatten_outputs(out), attribute(per_kernel, counts, kernel_names, launched())


def attribute(per_kernel: dict[str, float], counts: Counter, kernel_names: set[str],
              launched: Counter) -> dict:
    """Coverage from per-kernel device time (s per forward) and invocation counts."""
    ambiguous = sorted(k for k in per_kernel if k in kernel_names and counts[k] > launched[k])
    mine_names = {k for k in per_kernel if k in kernel_names and k not in ambiguous}
    total = sum(per_kernel.values())
    mine = sum(t for k, t in per_kernel.items() if k in mine_names)
    top = sorted(per_kernel.items(), key=lambda kv: -kv[1])[:8]
    out = {"coverage": (mine / total) if total > 0 else 0.0, "gpu_time_s": total,
           "candidate_time_s": mine, "method": "torch.profiler (CUPTI) kernel time",
           "kernels": [{"name": k[:200], "seconds": t, "candidate": k in mine_names} for k, t in top]}
    if ambiguous:
        out["ambiguous"] = [k[:200] for k in ambiguous[:8]]
    return out

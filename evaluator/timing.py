"""Child-side timing, side-stream check and profiler coverage.

GPU timing follows `triton.testing.do_bench`, so our numbers can be checked
against it: warm-up, then per run: perturb the input set about to be used (so a
cache keyed on content misses), write an L2-sized buffer (flush), CUDA event,
forward, CUDA event; one synchronize at the end; the median of the event times.
The flush is enqueued before the start event, so the host's launch overhead hides
behind it as in do_bench. Input sets rotate.

Side streams: work the candidate enqueues on another stream is invisible to events
on the current stream. `side_stream_gap` runs synchronised forwards and compares a
host clock around a full `torch.cuda.synchronize()` with the events; an honest
forward's gap is the sync latency (microseconds), hidden work shows up in full.

Coverage: torch.profiler over a few forwards; the share of GPU time in kernels whose
name is exactly one of the candidate's @triton.jit function names.

On the CPU (Triton interpreter) the same loop runs with perf_counter and without a
flush; those numbers are CPU-interpreter timings and are labelled as such.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence

import torch

from common.config.evaluator import TimingConfig

Forward = Callable[[list], object]


def perturb(inputs: list, run: int) -> None:
    """Change every floating input slightly in place (alternating up/down, no drift)."""
    factor = 1.0 + (2.0 ** -10 if run % 2 == 0 else -(2.0 ** -10))
    for x in inputs:
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            x.mul_(factor)


def time_gpu(fn: Forward, sets: Sequence[list], cfg: TimingConfig) -> dict:
    """Median CUDA-event time of fn over rotating, perturbed, L2-flushed runs."""
    flush = (torch.empty(cfg.l2_flush_bytes // 4, dtype=torch.int32, device="cuda")
             if cfg.l2_flush_bytes else None)
    for i in range(max(cfg.warmup_runs, 1)):
        fn(sets[i % len(sets)])
    torch.cuda.synchronize()
    estimate = _event_runs(fn, sets, flush, 5, 0)
    runs = int(min(cfg.max_runs, max(cfg.min_runs, cfg.rep_ms / max(statistics.median(estimate), 1e-6))))
    times = _event_runs(fn, sets, flush, runs, 5)
    return {"median_s": statistics.median(times) / 1e3, "runs": runs,
            "min_s": min(times) / 1e3, "max_s": max(times) / 1e3, "clock": "cuda-events"}


def _event_runs(fn: Forward, sets: Sequence[list], flush, runs: int, offset: int) -> list[float]:
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(runs)]
    for i in range(runs):
        inputs = sets[(i + offset) % len(sets)]
        perturb(inputs, i + offset)
        if flush is not None:
            flush.zero_()
        starts[i].record()
        fn(inputs)
        ends[i].record()
    torch.cuda.synchronize()
    return [s.elapsed_time(e) for s, e in zip(starts, ends)]


def time_cpu(fn: Forward, sets: Sequence[list], cfg: TimingConfig) -> dict:
    """Median perf_counter time of fn (CPU interpreter)."""
    for i in range(cfg.cpu_warmup_runs):
        fn(sets[i % len(sets)])
    times = []
    for i in range(cfg.cpu_runs):
        inputs = sets[i % len(sets)]
        perturb(inputs, i)
        t0 = time.perf_counter()
        fn(inputs)
        times.append(time.perf_counter() - t0)
    return {"median_s": statistics.median(times), "runs": cfg.cpu_runs, "min_s": min(times),
            "max_s": max(times), "clock": "cpu-interpreter perf_counter"}


def side_stream_gap(fn: Forward, inputs: list, runs: int) -> dict:
    """Median host time (around a full sync) minus median event time, synchronised runs."""
    host, events = [], []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        torch.cuda.synchronize()
        start.record()
        t0 = time.perf_counter()
        fn(inputs)
        end.record()
        torch.cuda.synchronize()
        host.append(time.perf_counter() - t0)
        events.append(start.elapsed_time(end) / 1e3)
    h, e = statistics.median(host), statistics.median(events)
    return {"host_s": h, "event_s": e, "gap_s": h - e}


def coverage(fn: Forward, inputs: list, kernel_names: set[str], forwards: int) -> dict:
    """Share of the forward's GPU time spent in the candidate's own kernels."""
    from torch.profiler import ProfilerActivity, profile

    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(forwards):
            fn(inputs)
        torch.cuda.synchronize()
    per_kernel: dict[str, float] = {}
    for evt in prof.key_averages():
        if str(getattr(evt, "device_type", "")).endswith("CUDA"):
            t = getattr(evt, "self_device_time_total", None)
            if t is None:
                t = getattr(evt, "self_cuda_time_total", 0.0)
            if t > 0:
                per_kernel[evt.key] = per_kernel.get(evt.key, 0.0) + t / 1e6 / forwards
    total = sum(per_kernel.values())
    mine = sum(t for k, t in per_kernel.items() if k in kernel_names)
    top = sorted(per_kernel.items(), key=lambda kv: -kv[1])[:8]
    return {"coverage": (mine / total) if total > 0 else 0.0, "gpu_time_s": total,
            "candidate_time_s": mine,
            "kernels": [{"name": k[:200], "seconds": t, "candidate": k in kernel_names} for k, t in top]}

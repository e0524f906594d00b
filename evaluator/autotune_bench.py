"""The autotuner's benchmark of configs on the GPU, owned by the harness.

An autotuned kernel's first launch for a key times each config with `triton.testing.do_bench`.
In the Triton the GPU image runs (3.6) that benchmark lifts each config's times and the
quantiles into tensors (`torch.tensor(times)`), and the checked forward's watch counts them as
values host Python put into tensors (`host_made`): an honest GEMM autotuned over ten configs
made 75 on an H100 (limit 64, `host_compute`; session 59, honest file s57g_11), one over eight
configs 60. The benchmark is not the candidate's computation, so the harness supplies it:
Triton's own procedure (warm-up and repetitions sized by a five-run estimate, the L2 flushed
before each timed run, CUDA events), its statistics in plain Python floats as Triton 3.9
computes them, no tensor made of a time. Installed in the zygote before any candidate code;
a `do_bench` a candidate hands its autotuner is its own code, watched as such. On the CPU
`evaluator.autotune_cpu` replaces the benchmark altogether.
"""
from __future__ import annotations

import math
import statistics

MODES = ("min", "max", "mean", "median", "all")


def summarize(times, quantiles, return_mode: str):
    """`triton.testing._summarize_statistics` over plain floats: the quantiles (linear
    interpolation, as numpy's default) when given, else the named statistic."""
    times = [float(t) for t in times]
    if quantiles is not None:
        found = [_quantile(sorted(times), q) for q in quantiles]
        return found[0] if len(found) == 1 else found
    if return_mode == "all":
        return times
    return {"min": min, "max": max, "mean": statistics.mean, "median": statistics.median}[return_mode](times)


def _quantile(ordered: list[float], q: float) -> float:
    if not 0 <= q <= 1:
        raise ValueError("Quantiles must be in the range [0, 1]")
    point = q * (len(ordered) - 1)
    low, high = math.floor(point), math.ceil(point)
    return (1 - (point - low)) * ordered[low] + (point - low) * ordered[high]


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """`triton.testing.do_bench`'s procedure with its statistics in Python (`summarize`)."""
    from triton import runtime

    assert return_mode in MODES
    active = runtime.driver.active
    device = active.get_device_interface()
    fn()
    device.synchronize()
    cache = active.get_empty_cache_for_benchmark()
    begin, end = device.Event(enable_timing=True), device.Event(enable_timing=True)
    begin.record()
    for _ in range(5):
        active.clear_cache(cache)
        fn()
    end.record()
    device.synchronize()
    estimate_ms = max(begin.elapsed_time(end) / 5, 1e-6)
    n_warmup, n_repeat = max(1, int(warmup / estimate_ms)), max(1, int(rep / estimate_ms))
    begins = [device.Event(enable_timing=True) for _ in range(n_repeat)]
    ends = [device.Event(enable_timing=True) for _ in range(n_repeat)]
    for _ in range(n_warmup):
        fn()
    for first, last in zip(begins, ends):
        for x in grad_to_none or ():
            x.grad = None
        active.clear_cache(cache)
        first.record()
        fn()
        last.record()
    device.synchronize()
    return summarize([a.elapsed_time(b) for a, b in zip(begins, ends)], quantiles, return_mode)


def install() -> None:
    """The GPU zygote, once: Triton's benchmarker (`driver.active.get_benchmarker()` imports
    `triton.testing.do_bench` when an autotuner first benchmarks) and its summary are these."""
    import triton.testing as testing

    testing.do_bench = do_bench
    if hasattr(testing, "_summarize_statistics"):
        testing._summarize_statistics = summarize

"""The GPU autotuner's config benchmark is the harness's: Triton's procedure and statistics,
with no tensor made of a time (Triton 3.6 lifted each config's times into a tensor, which the
checked forward's watch counted as host-made values: an honest ten-config GEMM was refused)."""

import random
import time

import pytest
import torch
import triton.testing
from torch.overrides import TorchFunctionMode

from evaluator import autotune_bench


class _Event:
    def __init__(self, enable_timing=True):
        self.at = None

    def record(self):
        self.at = time.perf_counter()

    def elapsed_time(self, other):
        return (other.at - self.at) * 1e3


class _Interface:
    Event = _Event

    @staticmethod
    def synchronize():
        pass


class _Driver:
    """The active driver's benchmark API on the host (events are the host clock)."""

    cleared = 0

    def get_device_interface(self):
        return _Interface

    def get_empty_cache_for_benchmark(self):
        return torch.empty(1024, dtype=torch.uint8)

    def clear_cache(self, cache):
        self.cleared += 1
        cache.zero_()


class _Lifts(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.made = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func in (torch.tensor, torch.as_tensor):
            self.made.append(args)
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("mode", ["min", "max", "mean", "median", "all"])
def test_the_summary_is_tritons_own_statistics(mode):
    times = [random.uniform(0.1, 2.0) for _ in range(37)]
    assert autotune_bench.summarize(times, None, mode) == pytest.approx(
        triton.testing._summarize_statistics(times, None, mode)
    )
    qs = (0.5, 0.2, 0.8)
    assert autotune_bench.summarize(times, qs, mode) == pytest.approx(
        triton.testing._summarize_statistics(times, qs, mode)
    )
    with pytest.raises(ValueError):
        autotune_bench.summarize(times, (1.5,), mode)


def test_an_autotuners_benchmark_makes_no_tensor_of_its_times(monkeypatch):
    """The procedure runs the config (estimate, warm-up, timed runs each after an L2 flush)
    and returns the quantiles the autotuner asks for, as Python floats."""
    from triton import runtime

    driver = _Driver()
    monkeypatch.setattr(runtime.driver, "_active", driver, raising=False)
    monkeypatch.setattr(type(runtime.driver), "active", property(lambda self: driver), raising=False)
    runs = []

    def kernel_call():
        runs.append(1)
        time.sleep(0.002)

    with _Lifts() as lifts:
        found = autotune_bench.do_bench(kernel_call, warmup=5, rep=20, quantiles=(0.5, 0.2, 0.8))
    assert lifts.made == []
    assert len(found) == 3 and all(type(t) is float for t in found)
    assert found[1] <= found[0] <= found[2] and 1.5 < found[0] < 50
    assert len(runs) >= 1 + 5 + 1 + 1 and driver.cleared >= 5 + 1


def test_installed_it_is_the_benchmark_triton_hands_an_autotuner(monkeypatch):
    monkeypatch.setattr(triton.testing, "do_bench", triton.testing.do_bench)
    monkeypatch.setattr(triton.testing, "_summarize_statistics", triton.testing._summarize_statistics)
    autotune_bench.install()
    from triton.backends.nvidia.driver import CudaDriver

    assert CudaDriver.get_benchmarker(None) is autotune_bench.do_bench
    assert triton.testing._summarize_statistics is autotune_bench.summarize

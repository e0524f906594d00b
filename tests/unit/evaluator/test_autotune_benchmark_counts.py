"""What an autotuner's benchmark puts into a checked forward's host-made count
(evaluator.launch_hook.BENCHMARKING). do_bench runs each config's pre_hook and launch as many
times as its timing says: on an H100 an honest ten-config GEMM's benchmark launches, read in
launch order, were 75 host-made numbers (s57g_11), and a config pre_hook's `fill_(0.0)` was 139
(3779 under the CPU's emulation): host_compute for honest kernels. The benchmark's launches are
read as distinct tuples, not in order, and its host side's repeats count once; whatever differs
from run to run still counts, and so does every config's values. No launch may come from an
autotuner's host code (a pre_hook): launch kernels from forward."""
import os

import pytest
import torch
import triton
import triton.language as tl

from evaluator.forward_watch import Provenance
from evaluator.launch_hook import KernelArgumentError, LaunchRecorder

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 "
                                       "child started by test_under_the_interpreter")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


def _bench(runs: int):
    def do_bench(kernel_call, quantiles):  # the GPU's do_bench, minus the clock
        for _ in range(runs):
            kernel_call()
        return [1.0, 1.0, 1.0]
    return do_bench


@triton.jit
def _relu(x_ptr, out_ptr, n, BLOCK: tl.constexpr, SCALE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    tl.store(out_ptr + offs, tl.maximum(x * SCALE, 0.0) / SCALE, mask=offs < n)


def _host_made(configs: list, runs: int, heuristics: dict | None = None) -> tuple[int, int]:
    kernel = _relu if heuristics is None else triton.heuristics(heuristics)(_relu)
    kernel = triton.autotune(configs=configs, key=["n"], do_bench=_bench(runs))(kernel)
    recorder = LaunchRecorder()
    recorder.install()
    x = torch.randn(1000)
    out = torch.empty_like(x)
    watch = Provenance(recorder)
    recorder.start()
    with watch:
        kernel[lambda meta: (triton.cdiv(1000, meta["BLOCK"]),)](x, out, 1000)
    recorder.stop()
    torch.testing.assert_close(out, x.relu())
    return watch.report()["host_made"], len(recorder.last_launches)


def _fill_zero(nargs):
    nargs["out_ptr"].fill_(0.0)


@needs_interpreter
def test_a_benchmarks_repeated_pre_hooks_and_launches_count_once():
    configs = [triton.Config({"BLOCK": b, "SCALE": 1}, pre_hook=_fill_zero) for b in (64, 128, 256, 512)]
    made, launches = _host_made(configs, runs=50)
    assert launches == 4 * 50 + 1  # every run is still a launch of the forward
    assert made <= 4, made  # before: 0.0 once per pre_hook call, and the runs' order (>200)


@needs_interpreter
def test_every_configs_values_count_whatever_the_benchmark_runs():
    """Forty configs carrying a constexpr no size explains: forty numbers host Python handed the
    kernel, though the benchmark's launches, the only ones to run most of them, are not read
    (session 60: one sigmoid code per config, stored by the benchmark's runs into a table)."""
    configs = [triton.Config({"BLOCK": 64, "SCALE": 10007 + 2 * i}) for i in range(40)]
    made, _ = _host_made(configs, runs=3)
    assert made >= 40, made


@needs_interpreter
def test_a_pre_hook_writing_other_values_per_run_counts_each():
    """A pre_hook that fills a different value on each call (a table spelled over the
    benchmark's runs) is not a repeat."""
    calls = []

    def spell(nargs):
        calls.append(None)
        nargs["out_ptr"].fill_(float(len(calls)) / 7.0)
    configs = [triton.Config({"BLOCK": b, "SCALE": 1}, pre_hook=spell) for b in (64, 128)]
    made, _ = _host_made(configs, runs=40)
    assert made >= 80, made


@needs_interpreter
def test_a_heuristic_counting_its_calls_in_the_benchmark_counts_each_value():
    """Launches of the benchmark are read as distinct tuples: a heuristic that hands a new
    number on every call (a table spelled over do_bench's runs) is not a repeat."""
    calls = []

    def code(args):
        calls.append(None)
        return 10007 + 2 * len(calls)
    made, _ = _host_made([triton.Config({"BLOCK": b}) for b in (64, 128)], runs=30,
                         heuristics={"SCALE": code})
    assert made >= 60, made


@needs_interpreter
@pytest.mark.parametrize("which", ["another kernel", "the same kernel on other values"])
def test_a_kernel_launched_from_a_pre_hook_is_refused(which):
    """A config's pre_hook that launches a kernel (a table stored one launch per entry, run
    by the benchmark where neither device reads launches in order) is refused whatever it
    launches: launch kernels from forward."""
    def launches(nargs):
        if which == "another kernel":
            _copy[(1,)](nargs["x_ptr"], nargs["out_ptr"], 7)
        else:
            _relu[(1,)](nargs["x_ptr"], nargs["out_ptr"], nargs["n"], BLOCK=64, SCALE=10007)
    configs = [triton.Config({"BLOCK": b, "SCALE": 1}, pre_hook=launches) for b in (64, 128)]
    with pytest.raises(KernelArgumentError, match="autotuner's or a heuristic's host code"):
        _host_made(configs, runs=2)


@triton.jit
def _copy(x_ptr, out_ptr, code):
    tl.store(out_ptr, tl.load(x_ptr) + code)

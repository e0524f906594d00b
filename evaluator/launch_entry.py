"""The launch entry points above a kernel's own run: Autotuner.run and Heuristics.run (what a
heuristic may set, device functions veiled from their host code, no launch from that host
code), an autotuner's benchmark (`benchmarking`, what the watch reads of it) and its configs
(`TUNED`). evaluator.launch_hook installs the wrappers.
"""
from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from evaluator import launch_args
from evaluator.launch_args import HEURISTIC_OPTIONS, KernelArgumentError
from evaluator.launch_sizes import _python_fn

_INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"  # set before the zygote imports this
# called (autotuner, args, kwargs) as an autotuner's launch starts, before it benchmarks or picks
# a config (set by the provenance watch: evaluator.forward_watch, launch_sizes.DataInts.configs)
TUNED: list = [None]
# > 0 while an autotuner benchmarks a key's configs (the GPU's `Autotuner._bench`, the CPU's
# emulation: evaluator.autotune_cpu): what runs there is the same host code and launches run
# hundreds of times by do_bench, which the watch counts once (forward_watch, launch_sizes)
BENCHMARKING = [0]


@contextmanager
def benchmarking() -> Iterator[None]:
    BENCHMARKING[0] += 1
    try:
        yield
    finally:
        BENCHMARKING[0] -= 1


def _wrap_bench(original: Callable) -> Callable:
    """Autotuner._bench on the GPU: one config's do_bench, under `benchmarking`."""
    def _bench(self, *args, **kwargs):
        with benchmarking():
            return original(self, *args, **kwargs)

    _bench.__wrapped_launch__ = original  # type: ignore[attr-defined]
    return _bench


@functools.cache
def _interpreter_class() -> type | None:
    try:
        from triton.runtime.interpreter import InterpretedFunction
    except ImportError:  # deliberate: a Triton build without the interpreter (GPU only)
        return None
    return InterpretedFunction


def _interpreted(fn: object) -> bool:
    """An InterpretedFunction (TRITON_INTERPRET): its body would run as host Python."""
    cls = _interpreter_class()
    return cls is not None and isinstance(fn, cls)


def _not_in_a_kernel_body() -> None:
    """Under the interpreter a running kernel body may not launch, even a warm-up: on the GPU
    it cannot, and here the launch's heuristics and pruning callables would run host code on
    the values the body loaded (red team G, session 18: a heuristic named `warmup` read the
    block as text, then turned the launch into a warm-up the executor never saw)."""
    if not _INTERPRETED:
        return
    from evaluator import interpreter_guard

    if interpreter_guard._State.running:
        raise interpreter_guard.KernelLaunchError(
            "a kernel was launched from inside a running @triton.jit body: call @triton.jit helpers as "
            "functions, launch kernels from forward")


_OPTIONS = HEURISTIC_OPTIONS | {"grid", "warmup"}
# per launch entry running (Autotuner/Heuristics.run): its kernel's Python function and the
# arguments it was handed, what a launch made while it runs must be (`_own_entry`)
_ENTRIES: list[tuple] = []  # (kernel function, args, kwargs, the wrapper)


def _kernel_function(kernel: object) -> int:
    return id(_python_fn(kernel))


def _same(a: object, b: object) -> bool:
    if a is b:
        return True
    try:
        return type(a) is type(b) and not hasattr(a, "data_ptr") and bool(a == b)
    except Exception:  # noqa: BLE001  (an object without a plain equality is not the same)
        return False


def _own_entry(kernel: object, args: tuple, kwargs: dict) -> None:
    """A launch made while an autotuner or heuristics wrapper runs is its kernel's, on the
    arguments the wrapper was handed and one config's values (an autotuner) or its heuristics'
    (a heuristics wrapper), or it came from the wrapper's host code (a config's pre_hook,
    prune, perf_model, a heuristic): launch kernels from forward. Launches there run where
    neither device reads them alike: the CPU's emulation of a benchmark runs its pre_hooks
    unwatched, the GPU's benchmark reads its launches as distinct tuples, not in order (red
    team, session 60: a pre_hook launched a one-program kernel per entry of a host-computed
    sigmoid table)."""
    if not _ENTRIES:
        return
    fn, handed, given, entry = _ENTRIES[-1]
    # the compiler's options aside: a prune may hand back configs with other num_stages
    extra = {k: v for k, v in kwargs.items() if k not in given and k not in _OPTIONS}
    if type(entry).__name__ == "Heuristics":
        fits = set(extra) <= set(getattr(entry, "values", None) or ())
    else:
        fits = any(all(k in extra or k in given for k in c) and len(extra) <= len(c) and
                   all(k in c and _same(v, c[k]) for k, v in extra.items())
                   for c in ({k: v for k, v in getattr(config, "all_kwargs", dict)().items() if k not in _OPTIONS}
                             for config in getattr(entry, "configs", None) or ()))
    if fn != _kernel_function(kernel) or len(args) != len(handed) or not fits or \
            not all(_same(a, b) for a, b in zip(args, handed)):
        raise KernelArgumentError(
            "a kernel was launched from an autotuner's or a heuristic's host code (a config pre_hook, "
            "prune_configs_by, perf_model or heuristic function): launch kernels from forward")


def _wrap_entry(original: Callable) -> Callable:
    """Heuristics.run and Autotuner.run: the first launch entry point, before any heuristic or
    prune callable runs. A heuristic may set only the kernel's own parameters and the pure
    tuning options (HEURISTIC_OPTIONS: `num_warps` by block size is a common idiom, honest
    round, session 19), not `warmup`, `grid` or another launch option, which change what the
    launch does (a heuristic named `warmup` hid a launch from the executor: red team G)."""
    def run(self, *args, **kwargs):
        _not_in_a_kernel_body()
        values = getattr(self, "values", None)
        names = getattr(self, "arg_names", None) or ()
        if isinstance(values, dict):
            bad = sorted(str(k) for k in values if k not in names and k not in HEURISTIC_OPTIONS)
            if bad:
                raise KernelArgumentError(f"a heuristic sets {', '.join(bad)}, which is not a parameter of "
                                          f"the kernel: heuristics set the kernel's own tl.constexpr parameters")
        configured = launch_args.configured_functions(self)
        if configured:
            raise KernelArgumentError(f"an autotune config sets {', '.join(configured)} to a @triton.jit "
                                      "function: hand a device function to the launch, at a tl.constexpr")
        # the heuristics, prune, perf_model and pre_hooks below see a device function's token
        with launch_args.veiling(args, kwargs) as (args, kwargs):
            if TUNED[0] is not None and len(getattr(self, "configs", None) or ()) > 1:
                TUNED[0](self, args, kwargs)
            _ENTRIES.append((_kernel_function(self), args, kwargs, self))
            try:
                return original(self, *args, **kwargs)
            finally:
                _ENTRIES.pop()

    run.__wrapped_launch__ = original  # type: ignore[attr-defined]
    return run

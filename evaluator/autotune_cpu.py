"""Autotuned kernels under the CPU interpreter: which config each checked forward runs.

Under the interpreter there is no device driver to benchmark an autotuner's configs with
(Triton raises "0 active drivers"), and CPU timings would say nothing about which config a
GPU picks: the GPU runs the one its benchmark finds fastest, which a candidate can make the
one that cheats (red team s43: a config whose grid covers half the output moves half the
bytes). So the CPU checks as many of the configs as it has checked forwards:
- the configs its pruning leaves are put in a random order (`secrets`) once per autotuner;
- each correctness trial (`next_forward(checked=True)`, called by the child before each
  checked forward) forgets the autotuner's picks, and each key then runs the next config in
  its order that fits an sm_90 block (`device_compile.fits`: a GPU benchmark takes
  OutOfResources and PTXASError as infinitely slow), kept for the rest of the forward as a
  GPU keeps its pick;
- a knock-out (of the trials or of the knock-out round) and the round's checking forwards
  pick the next config as a trial does (`probe`), so no forward of either phase tells a
  knock-out by a config that did not move; every other forward (timed, profiled) forgets
  the picks too and picks the last trial's config again: every forward picks, and runs the
  pre_hooks, alike (a forward that saw no pick would know it was not checked), and every
  variant timed was launched by a trial.
With n configs that fit and t trials (five by default), min(n, t) of them are checked against
the reference in one evaluation; and after a checked forward the first pick of each key runs every config that fits
on copies of the launch's tensors and refuses configs whose writes disagree (`sweep`), so a
wrong config among more configs than trials is caught too (red team s45). Before session 44
one config was checked (any wrong config among two got through one evaluation in two), and
before session 43 always the first. Where none fits, the first
config runs and fails as on the GPU. On the GPU nothing here runs: the autotuner benchmarks.
"""
from __future__ import annotations

import secrets
import weakref

_DRAW = secrets.SystemRandom()
_CHECKED = [False]  # the forward in progress is a checked one (`next_forward`)
_TRIAL = [False]  # ... and a correctness trial, whose pick the timed forwards run again
_PIN: dict = {}  # (autotuner id, key) -> the config a rerun of the forward runs (`sweep`)
# set by the child: a context in which launches are not the forward's (not recorded, not
# watched), for the configs compared at a first pick
quiet = None
# autotuner -> {tuning key -> [its configs' names (`_named`) in a random order (drawn once),
# where the next pick starts, the position of its last pick]}: keyed weakly, as the autotuner
# is the candidate's
_ORDER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def install() -> None:
    """Replace Triton's benchmark of configs by the rotation above (the CPU child, once)."""
    from triton.runtime import autotuner

    def same_time(fn, quantiles=None, **_kw):
        return [1.0] * len(quantiles) if quantiles else 1.0

    if "do_bench" in vars(autotuner.Autotuner):
        autotuner.Autotuner.do_bench = property(lambda self: same_time)
    prune = autotuner.Autotuner.prune_configs

    def fitting(self, kwargs):
        configs = prune(self, kwargs)
        if len(configs) <= 1:
            return configs
        return [_pick(self, configs, kwargs)]  # Autotuner.run keeps it for its key

    autotuner.Autotuner.prune_configs = fitting


def _key(tuner, kwargs: dict) -> tuple:
    """The key `Autotuner.run` caches a pick under: its key arguments' values, the dtypes."""
    given = {k: v for k, v in {**tuner.nargs, **kwargs}.items() if k in tuner.arg_names}
    key = [given[k] for k in tuner.keys if k in given]
    key += [str(v.dtype) for v in given.values() if hasattr(v, "dtype")]
    return tuple(key)


class _KeyState:
    """One tuning key's rotation: its configs' names in a random order (drawn once), where the
    next pick starts, the position of the last pick, and whether a checked forward has
    picked it (compared every config, `_all_agree`)."""

    def __init__(self, names: list[str]):
        self.order = _DRAW.sample(names, len(names))
        self.start = 0
        self.last: int | None = None
        self.trial: int | None = None  # the position a correctness trial last picked
        self.compared = False


def _pick(tuner, configs: list, kwargs: dict):
    """The first config at or after this forward's start, in the key's order, that fits."""
    from evaluator.device_compile import fits

    keys = _ORDER.setdefault(tuner, {})
    key = _key(tuner, kwargs)
    pinned = _PIN.get((id(tuner), key))
    if pinned is not None:  # the forward run again under one config (`sweep`)
        if pinned.pre_hook is not None:
            pinned.pre_hook({**tuner.nargs, **kwargs, **pinned.all_kwargs()})
        return pinned
    # configs by what they set, not by object: a pruning function may build them afresh at
    # every call (its list is then the same configs, and the rotation goes on)
    named = {_named(c): c for c in configs}
    state = keys.get(key)
    if state is None or set(state.order) != set(named):
        state = keys[key] = _KeyState(list(named))
    args = tuple(tuner.nargs.values())
    for step in range(len(state.order)):
        position = (state.start + step) % len(state.order)
        config = named[state.order[position]]
        if config.pre_hook is not None:  # as the GPU's benchmark runs it first (tutorial 09's TMA shapes)
            config.pre_hook({**tuner.nargs, **kwargs, **config.all_kwargs()})
        if fits(tuner.fn, args, {**kwargs, **config.all_kwargs()}):
            state.last = position
            if _TRIAL[0]:
                state.trial = position
            if _CHECKED[0] and not state.compared:  # where a GPU benchmarks: the key's first pick
                state.compared = True
                others = [named[n] for n in state.order if n != state.order[position]]
                _all_agree(tuner, key, config, others, args, kwargs)
                _benchmarked(tuner, config, args, kwargs)
            return config
    return configs[0]


class KernelConfigsDisagree(RuntimeError):
    """Two configs of one autotuner compute different results from the same arguments."""


# (autotuner, key, config) whose writes at a first pick differed from the chosen config's:
# the forward runs again under each (`sweep`), its outputs held to the checked forward's
_PENDING: list = []


def _all_agree(tuner, key: tuple, chosen, others: list, args: tuple, kwargs: dict) -> None:
    """At a key's first pick in a checked forward, inside that forward as a GPU's benchmark
    runs (a host callable, a grid reading a flag forward sets, sees what the benchmark's
    sees: red team s45b ran the configs after the forward, where the flag was down): the
    chosen config and every other that fits run once, each on its own copy of the launch's
    tensors (taken as they are before the launch, outside the forward's watches and not
    recorded as its launches). A config whose writes differ by more than another tiling's
    rounding (DISAGREE) is noted for `sweep`: configs may differ in what they write to a
    workspace (one partial per program, sized by BLOCK, as mamba's and attorch's reductions
    do, honest round s46) and still compute the same forward, so the forward itself is what
    decides."""
    from torch.utils._python_dispatch import _disable_current_modes

    from evaluator.device_compile import fits

    if not others or not _leaves(args):
        return
    with _disable_current_modes():
        saved = _cloned(args)
    with quiet() if quiet is not None else _nothing():
        _host_side(tuner, chosen, args, kwargs)
        base = _run_on_copy(tuner, chosen, saved, kwargs)
        for config in others:
            current = dict(kwargs, **config.all_kwargs())
            if not fits(tuner.fn, saved, current):
                _host_side(tuner, config, args, kwargs, runs=1)  # the GPU's first call raises
                continue
            _host_side(tuner, config, args, kwargs)
            got = _run_on_copy(tuner, config, saved, kwargs)
            with _disable_current_modes():  # the harness's reads, not the forward's
                same = all(_agree(a, b) for (_, a), (_, b) in zip(got, base))
            if not same:
                _PENDING.append((tuner, key, config, chosen))


# set by the child: its launch recorder, whose `resolving` hands a grid function what a
# launch hands it (evaluator.launch_hook)
recorder = None


def benchmark_runs() -> int:
    """How many times a GPU's benchmark of one config calls it: Triton's do_bench(warmup=25,
    rep=100) makes 1 + 5 calls, then 25 ms and 100 ms worth of them by the estimated time of
    one; the time is drawn from 5 us to 0.5 ms (log-uniform), so 256 to about 25000 calls."""
    estimate_ms = 10 ** _DRAW.uniform(-2.301, -0.301)
    return 6 + max(1, int(25 / estimate_ms)) + max(1, int(100 / estimate_ms))


def _host_side(tuner, config, args: tuple, kwargs: dict, runs: int | None = None) -> None:
    """The host side of a GPU's benchmark of `config`, as many times as it runs it: the config's
    pre_hook, the autotuner's reset/restore hooks, the grid function (handed what a launch
    hands it) and the post hook, each once per run, on the launch's own arguments. A grid or
    hook that counted its calls knew a GPU's benchmark (hundreds to thousands) from the CPU's
    one run of each config, and could change what a config does after it (red team s46)."""
    from evaluator.launch_hook import _grid_meta

    current = dict(kwargs, **config.all_kwargs())
    full = {**tuner.nargs, **current}
    grid = kwargs.get("grid")
    resolved = None
    if callable(grid) and recorder is not None:
        plain = _grid_meta(tuner.fn, args, current)
        resolved = recorder.resolving(grid, None, plain)
    for _ in range(benchmark_runs() if runs is None else runs):
        if config.pre_hook is not None:
            config.pre_hook(full)
        tuner.pre_hook(full)
        if resolved is not None:
            resolved(plain)
        tuner.post_hook(full, exception=None)


def _nothing():
    from contextlib import nullcontext

    return nullcontext()


def _run_on_copy(tuner, config, saved, kwargs: dict) -> list:
    """(argument, tensor) of each tensor after one launch of `config` on a copy of `saved`."""
    args = _cloned(saved)
    current = dict(kwargs, **config.all_kwargs())
    if config.pre_hook is not None:
        config.pre_hook({**dict(zip(tuner.arg_names, args)), **current})
    tuner.fn.run(*args, **current)
    return [(_named_leaf(tuner, where), t) for where, t in _leaves(args)]


def _cloned(value):
    """The same arguments, each tensor (in tuples and lists too) a copy of its own."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.clone()
    if isinstance(value, (tuple, list)):
        return type(value)(_cloned(v) for v in value)
    return value


def _leaves(value, path: str = "") -> list:
    """(where, tensor) for each tensor of the arguments, in tuples and lists too (red team s45b:
    an output inside a tuple argument was neither copied nor compared)."""
    import torch

    if isinstance(value, torch.Tensor):
        return [(path, value)]
    if isinstance(value, (tuple, list)):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, f"{path}[{i}]")]
    return []


def sweep(rerun, outputs: list) -> None:
    """After a checked forward, for each config whose writes differed from the chosen one's at
    a first pick (`_all_agree`): the forward runs again on the same inputs (`rerun`, on the
    harness's copies) with that config pinned for its key, and what it returns is held to
    what the checked forward returned (which the worker holds to the reference), within
    DISAGREE. A GPU benchmarks all its configs and keeps the fastest, which the candidate
    can make any of them; the trials check one config each (min(n, trials) of n), so a
    wrong config among more configs than trials got through in some evaluations (red team
    s45: one of twelve covering half the output, ok two evaluations in five). Where the
    configs write the same, nothing runs again."""
    pending, _PENDING[:] = list(_PENDING), []
    checked = _CHECKED[0]
    for tuner, key, config, chosen in pending:
        forget_picks()
        _PIN[(id(tuner), key)] = config
        _CHECKED[0] = False  # the other keys run the checked forward's picks again
        try:
            again = rerun()
        finally:
            _PIN.clear()
            _CHECKED[0] = checked
            forget_picks()
        for i, (a, b) in enumerate(zip(again, outputs)):
            if not _agree(a, b):
                raise KernelConfigsDisagree(
                    f"forward returns a different output {i} when the autotuned kernel "
                    f"{getattr(tuner.fn, '__name__', tuner)} runs config {config} than when it runs "
                    f"{chosen}, on the same inputs: on the GPU the autotuner runs whichever config its "
                    "benchmark finds fastest, so every config must compute the same result (drop or fix "
                    "the configs that do not)")


def _named_leaf(tuner, where: str) -> str:
    index, _, rest = where[1:].partition("]")
    i = int(index)
    return (tuner.arg_names[i] if i < len(tuner.arg_names) else f"argument {i}") + rest


# how far two configs' writes may differ, by the dtype written: rounding of another tiling
# (split-K, another BLOCK_K's order of additions, fp16/bf16 stores), not a part of the result
# left out or scaled (red team s45b: a config scaling by 1.008 passed a 1e-2 norm bound, where
# the checker's own is 5e-3). (of the largest magnitude, relative norm)
DISAGREE = {"float64": (1e-6, 1e-7), "float32": (1e-3, 1e-4), "float16": (1e-2, 2e-3), "bfloat16": (2e-2, 1e-2)}
_OTHER = (2e-2, 1e-2)  # fp8 and the rest


def _agree(a, b) -> bool:
    import torch

    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if not (a.is_floating_point() or a.is_complex()):
        return bool(torch.equal(a, b))
    bound = DISAGREE.get(str(a.dtype).removeprefix("torch."), _OTHER)
    x, y = a.double(), b.double()
    same_nan = torch.equal(torch.isnan(x), torch.isnan(y))
    x, y = torch.nan_to_num(x, nan=0.0), torch.nan_to_num(y, nan=0.0)
    scale = float(y.abs().max()) if y.numel() else 0.0
    diff = (x - y).abs()
    if not same_nan or (diff.numel() and float(diff.max()) > bound[0] * scale + 1e-6):
        return False
    return float(torch.linalg.vector_norm(x - y)) <= bound[1] * float(torch.linalg.vector_norm(y)) + 1e-6


def _named(config) -> str:
    """A config by what it sets: its kwargs, launch options and pre_hook."""
    hook = config.pre_hook
    return f"{config} {'' if hook is None else id(getattr(hook, '__code__', hook))}"


def _benchmarked(tuner, config, args: tuple, kwargs: dict) -> None:
    """What a GPU's benchmark of a key leaves in the launch's arguments, once per key and
    process as the GPU benchmarks it: one call of the config as `Autotuner._bench` makes it (the
    config's pre_hook, `reset_to_zero`/`restore_value`'s pre_hook, the launch, their post_hook),
    then the reset `benchmark()` makes before the real launch. A kernel that adds into its
    output without `reset_to_zero`, or updates an input in place without `restore_value`, is
    run many times by that benchmark on the GPU, on the forward's own tensors (red team s44: an
    autotuned atomic MSE, right on the CPU and a multiple of it on an H200); one more call here
    leaves it as wrong."""
    current = dict(kwargs, **config.all_kwargs())
    full = {**tuner.nargs, **current}
    if config.pre_hook is not None:
        config.pre_hook(full)
    tuner.pre_hook(full)
    try:
        tuner.fn.run(*args, **current)
    except Exception as exc:
        try:
            tuner.post_hook(full, exception=exc)
        finally:
            raise
    tuner.post_hook(full, exception=None)
    tuner.pre_hook(full, reset_only=True)


def next_forward(checked: bool, probe: bool = False) -> None:
    """A forward starts: every autotuner forgets its picks, so each forward picks (and runs
    the pre_hooks) alike, whatever it is for. A checked forward picks, per key, the next
    config after its last pick, and so does a probe (`probe`: a knock-out, of the trials'
    or of the knock-out round, and the round's checking forwards), which must pick as a trial
    does: a knock-out that ran its last pick again was the one forward whose config did not
    move, and the round's checking forwards moved the rotation past what the trials ran,
    where the timed forwards then ran a variant no trial launched (honest round s47:
    `timed_path_differs` with two kernels and eleven configs). Any other forward (timed,
    profiled, a `sweep` rerun) runs the last trial's pick again, so what it runs was checked
    by a trial, whose launches the timed path is held to (judge.judge_timed_path)."""
    _CHECKED[0] = checked and not probe
    _TRIAL[0] = checked and not probe
    for keys in list(_ORDER.values()):
        for state in keys.values():
            if state.last is None:
                continue
            if checked or probe:
                state.start = (state.last + 1) % len(state.order)
            else:
                state.start = state.trial if state.trial is not None else state.last
    forget_picks()


def forget_picks() -> None:
    """Every autotuner forgets the configs it picked (its cache of them), so the next launch
    of each key picks again."""
    for tuner in list(_ORDER):
        cache = getattr(tuner, "cache", None)
        if isinstance(cache, dict):
            cache.clear()

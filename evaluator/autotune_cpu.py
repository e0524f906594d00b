"""Autotuned kernels under the CPU interpreter: which config each checked forward runs.

Under the interpreter there is no device driver to benchmark an autotuner's configs with
(Triton raises "0 active drivers"), and CPU timings would say nothing about which config a
GPU picks: the GPU runs the one its benchmark finds fastest, which a candidate can make the
one that cheats (red team s43: a config whose grid covers half the output moves half the
bytes). So the CPU checks as many of the configs as it has checked forwards:
- a key's configs are pruned (the candidate's early_config_prune, perf_model and top_k, as
  Triton 3.6's `prune_configs` on the GPU applies them) once, at the key's first launch, as
  a GPU caches its pick per key and never prunes that key again (session 47: a pruning
  function counting its calls knew the CPU, which pruned at every forward); they are put in
  a random order (`secrets`) once per key;
- each correctness trial (`next_forward(checked=True)`, called by the child before each
  checked forward) forgets the autotuner's picks, and each key then runs the next config in
  its order that fits an sm_90 block (`device_compile`: a GPU benchmark takes OutOfResources,
  PTXASError and CompileTimeAssertionFailure as infinitely slow), kept for the rest of the
  forward as a GPU keeps its pick; a later pick calls none of the candidate's callables
  (what fits is known from the key's first pick), so each launch calls its config's pre_hook
  and heuristics once, as a GPU's cached pick does;
- every other forward (knock-out, timed, profiled) forgets the picks too and picks the last
  trial's config again: every forward picks, and runs the pre_hooks, alike (a forward that
  saw no pick would know it was not checked), and every variant timed was checked.
With n configs that fit and t trials (five by default), min(n, t) of them are checked against
the reference in one evaluation; and a key's first pick in a checked forward runs what a
GPU's benchmark runs (`_benchmark`): every pruned config, in the pruned list's order, on
every tensor the launch can touch (launch_storage.handed_leaves: in tuples, a host
descriptor's base), its host side (hooks, heuristics, grid) as many times as do_bench calls
it; a config whose writes, from the tensors as handed, differ from the chosen one's is held to
agree in a later checked forward run with it pinned (`due`, `held`), so a wrong config among
more configs than trials is caught too (red team s45); and every config that fits is held so,
before a trial, on each input transform the trials use that it has not met (a config wrong only
on large inputs agreed on the first pick's randn: red team rt48; `autotune_pins`, which holds
the pinned forwards' machinery). Each config also runs again on what its
run left, with the same random draws, and must leave every tensor bit for bit as that run did
(`KernelRunsDisagree`): then the hundreds of runs a GPU's benchmark makes leave what one does,
and the tensors after the benchmark hold what the configs, one after another, left there, as
on the GPU. Where none fits, the first config runs and fails as on the GPU. On the GPU nothing
here runs: the autotuner benchmarks.
"""
from __future__ import annotations

import re
import secrets
import time
import weakref
from contextlib import ExitStack, contextmanager
from functools import partial

from evaluator import autotune_pins as pins
from evaluator.autotune_pins import _PENDING, _PIN, _USED, DISAGREE, KernelConfigsDisagree, _agree  # noqa: F401
from evaluator.launch_storage import differs, digest, launch_tensors, restore, storages

_DRAW = secrets.SystemRandom()
_CHECKED = [False]  # the forward in progress is a checked one (`next_forward`)
_TRIAL = [False]  # ... and a correctness trial, whose pick the timed forwards run again
# set by the child: a context in which launches are not the forward's (not recorded, not
# watched), for the configs a first pick benchmarks
quiet = None
# what runs around a benchmark as around a launch of its kernel: kept_work.Kept, for which
# what the configs leave in the launch's tensors is that launch's writes (red team rt68)
WATCHES: list = []
# set by the child: its launch recorder, whose `resolving` hands a grid function what a
# launch hands it (evaluator.launch_hook)
recorder = None
# autotuner -> {tuning key -> _KeyState}: keyed weakly, as the autotuner is the candidate's
_ORDER: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# every autotuner made since `install` (autotune_pins.any_tuner, resolved)
TUNERS: weakref.WeakSet = weakref.WeakSet()
# seconds the emulated GPU benchmarks (`_benchmark`) took since the child last read it
# (`emulated`): the worker gives that time back to the evaluation (pipeline._Run.pinned_back)
_EMULATED = [0.0]


def emulated() -> float:
    """Seconds the first picks' emulated benchmarks took since the last call (then zero)."""
    seconds, _EMULATED[0] = _EMULATED[0], 0.0
    return seconds


def install() -> None:
    """Replace Triton's benchmark of configs by the rotation above (the CPU child, once).
    `Autotuner.run` calls `prune_configs` only for a key its cache lacks, and takes a single
    config it returns without a benchmark; every forward empties that cache (`forget_picks`)."""
    from triton.runtime import autotuner

    def same_time(fn, quantiles=None, **_kw):
        return [1.0] * len(quantiles) if quantiles else 1.0

    if "do_bench" in vars(autotuner.Autotuner):
        autotuner.Autotuner.do_bench = property(lambda self: same_time)

    def fitting(self, kwargs):
        return [_pick(self, kwargs)]  # Autotuner.run keeps it for its key

    autotuner.Autotuner.prune_configs = fitting
    made = autotuner.Autotuner.__init__

    def registered(self, *args, **kwargs):
        made(self, *args, **kwargs)
        TUNERS.add(self)

    autotuner.Autotuner.__init__ = registered


def _key(tuner, kwargs: dict) -> tuple:
    """The key `Autotuner.run` caches a pick under: its key arguments' values, the dtypes."""
    given = {k: v for k, v in {**tuner.nargs, **kwargs}.items() if k in tuner.arg_names}
    key = [given[k] for k in tuner.keys if k in given]
    key += [str(v.dtype) for v in given.values() if hasattr(v, "dtype")]
    return tuple(key)


def _pruned(tuner, kwargs: dict) -> list:
    """Triton 3.6's `Autotuner.prune_configs` (the GPU image's): early_config_prune, then a
    perf_model's top_k, a fraction of all the configs (3.9 takes it of the pruned ones and
    keeps at least one: another count of perf_model calls, another set benchmarked)."""
    configs = tuner.configs
    if tuner.early_config_prune:
        configs = tuner.early_config_prune(tuner.configs, tuner.nargs, **kwargs)
        if not configs:
            from triton.runtime import errors

            raise getattr(errors, "AutotunerError", RuntimeError)(
                "No valid autotuner configs after pruning. `early_config_prune` should return at least one config.")
    if tuner.perf_model:
        top_k = tuner.configs_top_k
        if isinstance(top_k, float) and top_k <= 1.0:
            top_k = int(len(tuner.configs) * top_k)
        elif not isinstance(top_k, int):
            raise TypeError("Error while pruning configs, top_k must be either 1) a float <= 1.0 or 2) an int")
        if len(configs) > top_k:
            timing = {config: tuner.perf_model(**tuner.nargs, **kwargs, **config.all_kwargs()) for config in configs}
            configs = sorted(timing.keys(), key=lambda c: timing[c])[:top_k]
    if not configs:
        raise ValueError("min() arg is an empty sequence")  # the GPU's benchmark of no config
    return list(configs)


class _KeyState:
    """One tuning key: its pruned configs (by what they set, in the pruned list's order), their
    rotation order (drawn once), where the next pick starts, the position of the last pick,
    why each config cannot run (None: it fits; known from the first pick on), and whether a
    checked forward has benchmarked it."""

    def __init__(self, configs: list):
        self.named: dict = {}
        for config in configs:  # a GPU's timings dict keeps one of equal configs
            self.named.setdefault(_named(config), config)
        self.listed = list(self.named)
        self.order = _DRAW.sample(self.listed, len(self.listed))
        self.start = 0
        self.last: int | None = None
        self.failure: dict = {}
        self.trial: int | None = None  # the position a correctness trial last picked
        self.compared = False


_UNKNOWN = object()


def _pick(tuner, kwargs: dict):
    """The first config at or after this forward's start, in the key's order, that fits; at a
    key's first pick in a checked forward, after the GPU's benchmark of its configs."""
    keys = _ORDER.setdefault(tuner, {})
    key = _key(tuner, kwargs)
    state = keys.get(key)
    if state is None:  # the key's first launch: where a GPU prunes, once per key and process
        state = keys[key] = _KeyState(_pruned(tuner, kwargs))
    pin = _PIN.get((id(tuner), key))
    if pin is not None:  # a pinned forward (`pinned`)
        _USED.add((id(tuner), key))
        pins.met(tuner, key, _named(pin))
        return pin
    args = tuple(tuner.nargs.values())
    benchmark = _CHECKED[0] and not state.compared
    if benchmark:
        state.compared = True
        started = time.perf_counter()
        from evaluator.launch_entry import benchmarking

        with _aside(), benchmarking(), ExitStack() as watched:
            for watch in list(WATCHES):  # every watch the forward runs under (provenance, construction)
                watched.enter_context(watch(tuner, args, kwargs))
            runs, left = _benchmark(tuner, state, args, kwargs)
        _EMULATED[0] += time.perf_counter() - started
    chosen = None
    for step in range(len(state.order)):
        position = (state.start + step) % len(state.order)
        name = state.order[position]
        failure = state.failure.get(name, _UNKNOWN)
        if failure is _UNKNOWN:  # a first pick outside a checked forward: as its benchmark would learn
            config = state.named[name]
            current = dict(kwargs, **config.all_kwargs())
            if config.pre_hook is not None:  # the benchmark runs it first (tutorial 09's TMA shapes)
                config.pre_hook({**tuner.nargs, **current})
            failure = state.failure[name] = _why_not(tuner.fn, args, current)[0]
        if failure is None:
            state.last, chosen = position, name
            if _TRIAL[0]:
                state.trial = position
                pins.met(tuner, key, name)
            break
    if benchmark:
        _settle(tuner, state, chosen, runs, left, key, kwargs)
    return state.named[chosen] if chosen is not None else state.named[state.listed[0]]


def kernel_only(tuner) -> bool:
    """A benchmark in which only Triton's code and the candidate's kernel run on the launch's
    tensors: no config pre_hook, the autotuner's own reset/restore hooks (Triton's, not the
    candidate's), a plain @triton.jit function below it (no heuristics, whose callables run
    there too). What the tensors hold after it is then the kernel's (`Provenance.benchmarking`)."""
    from triton.runtime import autotuner

    def triton_own(hook) -> bool:
        return getattr(getattr(hook, "__code__", None), "co_filename", None) == autotuner.__file__

    return (not getattr(tuner, "user_defined_pre_hook", True) and not getattr(tuner, "user_defined_post_hook", True)
            and triton_own(getattr(tuner, "pre_hook", None)) and triton_own(getattr(tuner, "post_hook", None))
            and all(getattr(c, "pre_hook", None) is None for c in getattr(tuner, "configs", None) or ())
            and type(getattr(tuner, "fn", None)).__name__ in ("JITFunction", "InterpretedFunction"))


@contextmanager
def _aside():
    with quiet() if quiet is not None else _nothing():
        yield


def _why_not(kernel, args: tuple, kwargs: dict) -> tuple:
    """(why a launch of `kernel` with these arguments fails on an sm_90 GPU before it runs, as
    the exception Triton raises there, or None; the launch's keyword arguments after the
    heuristics, each called once, as Heuristics.run calls them)."""
    from triton.compiler.errors import CompileTimeAssertionFailure
    from triton.runtime import errors

    from evaluator.device_compile import KernelOutOfResources, check
    from evaluator.device_lowering import KernelNotAssembled
    from evaluator.launch_args import check_arguments, unveiled
    from evaluator.launch_hook import with_heuristics

    kwargs, kernel = with_heuristics(kernel, args, kwargs)
    try:
        plain, options = check_arguments(kernel, *unveiled(args, kwargs))
        check(kernel, plain, {k: v for k, v in options.items() if k not in ("grid", "warmup")})
    except KernelOutOfResources as exc:
        return _out_of_resources(errors, str(exc)), kwargs
    except KernelNotAssembled as exc:
        return errors.PTXASError(str(exc)), kwargs
    except CompileTimeAssertionFailure as exc:
        return exc, kwargs
    except Exception:  # noqa: BLE001  (the launch raises it where it matters)
        return None, kwargs
    return None, kwargs


def _out_of_resources(errors, message: str):
    """Triton's OutOfResources for a config `device_lowering` finds over an sm_90 block: shared
    memory (the launch's _init_handles), or threads (too many for its registers or the block)."""
    from evaluator.device_lowering import SHARED_LIMIT, THREAD_LIMIT

    shared = re.search(r"needs (?:at least )?(\d+) bytes of shared memory", message)
    if shared:
        return errors.OutOfResources(int(shared.group(1)), SHARED_LIMIT, "shared memory")
    regs = re.search(r"needs (\d+) registers a thread.*?(\d+) warps", message)
    threads = re.search(r"runs (\d+) warps", message)
    if regs:
        warps = int(regs.group(2))
        return errors.OutOfResources(warps * 32, max(32, 65536 // max(int(regs.group(1)), 1) // 32 * 32), "threads")
    warps = int(threads.group(1)) if threads else 0
    return errors.OutOfResources(warps * 32, THREAD_LIMIT, "threads")


class KernelRunsDisagree(RuntimeError):
    """An autotuned kernel, run again on what its previous run left, writes otherwise: what a
    GPU's benchmark (many runs) leaves depends on how many times it ran."""


def _benchmark(tuner, state: _KeyState, args: tuple, kwargs: dict) -> tuple[dict, bytes]:
    """What a GPU's benchmark of a key runs (`Autotuner._bench` under do_bench), inside the
    forward where it runs (red team s45b: a grid reading a flag forward sets), unrecorded and
    unwatched: every pruned config in the pruned list's order (the GPU's), each as many
    times as do_bench calls it (`benchmark_runs`): its pre_hook, the autotuner's reset/restore
    pre_hook, the heuristics, the grid function (handed what a launch hands it), the post hook,
    all on the launch's own arguments as the GPU hands them (red team s46: a grid counting its
    calls knew the CPU's one call per config). Of those calls the last two or three launch the
    kernel on every tensor the launch can touch (`launch_tensors`: a host descriptor's base too):
    - one on the tensors as the launch handed them, whose writes `_settle` compares;
    - then the same config run again on what a run of it left, with the same random draws
      (evaluator.interpreter_draws), held to leave every one of those tensors bit for bit as
      that run left them (`KernelRunsDisagree` otherwise): a GPU runs each config hundreds to
      thousands of times on the launch's own tensors, putting back only what reset_to_zero
      and restore_value name, so a kernel that counts or adds into a tensor knew the CPU's one
      run from the GPU's many (red team rt25: a launch counter kept in a tensor between
      forwards). A config that leaves the tensors as they are after it (a fixed point) leaves
      them so after any number of runs, as the GPU's benchmark does. The run held to it is on
      what the configs before it left (`chain`), as on the GPU: where its first run left the
      tensors as those did, that run's; otherwise it runs once more there first.
    After the last config the tensors hold what the configs left (`chain`), as after a GPU's
    benchmark. A config that does not fit runs once and its post hook is handed the exception
    the GPU's launch raises. Returns ({config name: (its first run's writes, a digest of what
    the tensors held after it)}, a digest of what they hold after the benchmark)."""
    from torch.utils._python_dispatch import _disable_current_modes

    from evaluator import interpreter_draws

    tensors = launch_tensors(tuner, args, kwargs)
    with _disable_current_modes():
        saved = storages(tensors)
    runs: dict = {}
    chain = None  # what the configs run so far left (None: what the launch handed)
    for name in state.listed:
        config = state.named[name]
        current = dict(kwargs, **config.all_kwargs())
        full = {**tuner.nargs, **current}
        # do_bench's first call: the compile tells whether it runs at all
        if config.pre_hook is not None:
            config.pre_hook(full)
        tuner.pre_hook(full)
        try:
            failure, launched = _why_not(tuner.fn, args, current)
        except Exception as exc:
            tuner.post_hook(full, exception=exc)
            raise
        state.failure[name] = failure
        if failure is None or failure.__class__.__name__ == "OutOfResources":  # raised after the grid
            _grid(tuner.fn, args, kwargs.get("grid"), launched)
        tuner.post_hook(full, exception=failure)
        if failure is not None:
            continue
        _host_side(tuner, config, args, kwargs, benchmark_runs() - 4)

        launch = partial(_kernel_call, tuner, config, full, args, current, tensors, saved)
        with interpreter_draws.recorded() as tape:
            wrote = launch(keep=True)
        with _disable_current_modes():
            first = storages(tensors)
            runs[name] = (wrote, digest(first))
        if chain is None or differs(first, chain) is None:  # the chain's run: this one
            _host_side(tuner, config, args, kwargs, 1)
        else:
            with _disable_current_modes():
                restore(chain)
            with interpreter_draws.recorded() as tape:
                launch()
            with _disable_current_modes():
                first = storages(tensors)
        with interpreter_draws.replayed(tape):
            launch()
        with _disable_current_modes():
            chain = storages(tensors)
            changed = differs(chain, first)
            restore(saved)
        if changed is not None:
            raise _runs_disagree(tuner, config, tensors, changed)
    with _disable_current_modes():
        restore(chain if chain is not None else saved)
        left = digest(chain if chain is not None else saved)
    return runs, left


def _kernel_call(tuner, config, full: dict, args: tuple, current: dict, tensors: list, saved: list,
                 keep: bool = False):
    """One call of a GPU benchmark's kernel_call with its kernel: the config's pre_hook, the
    autotuner's reset/restore pre_hook, the kernel on the launch's tensors, the post hook.
    Returns, if `keep`, what the tensors hold after the kernel (before the post hook puts
    restore_value arguments back). Where it raises, the tensors are put back as handed."""
    from torch.utils._python_dispatch import _disable_current_modes

    if config.pre_hook is not None:
        config.pre_hook(full)
    tuner.pre_hook(full)
    try:
        tuner.fn.run(*args, **current)
    except Exception as exc:
        try:
            tuner.post_hook(full, exception=exc)
        finally:
            with _disable_current_modes():
                restore(saved)
        raise
    wrote = None
    if keep:
        with _disable_current_modes():  # the harness's reads, not the forward's
            wrote = [(where, t.clone()) for where, t in tensors]
    tuner.post_hook(full, exception=None)
    return wrote


def _runs_disagree(tuner, config, tensors: list, changed) -> KernelRunsDisagree:
    where = next((w for w, t in tensors if t.untyped_storage().data_ptr() == changed.data_ptr()), "?")
    return KernelRunsDisagree(
        f"the autotuned kernel {_kernel_name(tuner)}, run with config {config} on what its previous run "
        f"left, changes the tensor at argument `{where}`: a GPU's autotuner benchmarks each config by "
        "running it hundreds to thousands of times on the launch's own tensors, zeroing only its "
        "reset_to_zero arguments and putting back only its restore_value arguments around each run, so "
        "what a kernel that counts, adds into a tensor or updates one in place leaves there depends on how "
        "many times the benchmark ran. Every tensor an autotuned kernel writes must come out of a second "
        "run as out of the first: write it whole from what the kernel reads, or name its argument in "
        "reset_to_zero= (a sum the kernel adds into) or restore_value= (a tensor it updates in place)")


def _kernel_name(tuner) -> str:
    fn = getattr(tuner, "base_fn", None) or getattr(tuner, "fn", None)
    return str(getattr(fn, "__name__", tuner))


def _settle(tuner, state: _KeyState, chosen, runs: dict, left: bytes, key: tuple, kwargs: dict) -> None:
    """After a key's benchmark: configs whose writes differ from the chosen one's by more
    than another tiling's rounding (DISAGREE) are noted, each to be held to agree in a later
    checked forward run with it pinned (`due`): configs may write a workspace differently and
    compute the same forward (one partial per program, sized by BLOCK, as mamba's and
    attorch's reductions do, honest round s46), so the forward decides. The chosen config is
    noted too where the benchmark left the tensors otherwise than a run of it alone does: the
    forward's launch of it runs on what the other configs wrote, as on the GPU, where a config
    covering half the output left the other half as an honest config wrote it, right in this
    forward only (a GPU runs it on fresh tensors in every later one). The launch's tensors
    hold what the configs' runs left them (`_benchmark`), then the autotuner's reset_only
    pre_hook runs, as `benchmark()` runs it before the real launch: a kernel that adds into
    its output without `reset_to_zero`, or updates an input in place without `restore_value`,
    is run many times by a GPU's benchmark on the forward's own tensors (red team s44: an
    autotuned atomic MSE, right on the CPU and a multiple of it on an H200), and is refused
    there (`KernelRunsDisagree`)."""
    from torch.utils._python_dispatch import _disable_current_modes

    if chosen is None or chosen not in runs:
        return
    base, alone = runs[chosen]
    for name, (wrote, _) in runs.items():
        if name == chosen:
            continue
        with _disable_current_modes():
            same = len(wrote) == len(base) and all(_agree(a, b) for (_, a), (_, b) in zip(wrote, base))
        if not same:
            _PENDING.append({"tuner": tuner, "key": key, "config": state.named[name],
                             "chosen": state.named[chosen], "wait": None})
        pins.met(tuner, key, name, same)  # agreeing here: it met this trial's inputs
    if alone != left:
        pins.met(tuner, key, chosen, False)  # right only on what the others wrote
        _PENDING.append({"tuner": tuner, "key": key, "config": state.named[chosen],
                         "chosen": state.named[chosen], "wait": None})
    config = state.named[chosen]
    tuner.pre_hook({**tuner.nargs, **kwargs, **config.all_kwargs()}, reset_only=True)


def _grid(kernel, args: tuple, grid, launched: dict) -> None:
    """A callable grid called as a launch of `kernel` calls it, with `launched`: the launch's values
    after the heuristics, which it does not call again."""
    from evaluator.launch_hook import _grid_meta

    if callable(grid) and recorder is not None:
        plain = _grid_meta(kernel, args, launched)
        recorder.resolving(grid, None, plain)(plain)


def benchmark_runs() -> int:
    """How many times a GPU's benchmark of one config calls it: Triton's do_bench(warmup=25,
    rep=100) makes 1 + 5 calls, then 25 ms and 100 ms worth of them by the estimated time of
    one; the time is drawn from 5 us to 0.5 ms (log-uniform), so 256 to about 25000 calls."""
    estimate_ms = 10 ** _DRAW.uniform(-2.301, -0.301)
    return 6 + max(1, int(25 / estimate_ms)) + max(1, int(100 / estimate_ms))


def _host_side(tuner, config, args: tuple, kwargs: dict, runs: int) -> None:
    """The host side of `runs` calls of a GPU's benchmark of `config` (`Autotuner._bench`'s
    kernel_call): the config's pre_hook, the autotuner's reset/restore pre_hook, the kernel's
    heuristics (Heuristics.run calls each at every call and hands its value on: a grid may read
    it, honest round s46's KeyError), the grid function (handed what a launch hands it) and
    the post hook, on the launch's own arguments."""
    from evaluator.launch_hook import with_heuristics

    current = dict(kwargs, **config.all_kwargs())
    full = {**tuner.nargs, **current}
    grid = kwargs.get("grid")
    for _ in range(max(runs, 0)):
        if config.pre_hook is not None:
            config.pre_hook(full)
        tuner.pre_hook(full)
        try:
            launched, kernel = with_heuristics(tuner.fn, args, current)
            _grid(kernel, args, grid, launched)
        except Exception as exc:
            tuner.post_hook(full, exception=exc)
            raise
        tuner.post_hook(full, exception=None)


def _nothing():
    from contextlib import nullcontext

    return nullcontext()


def _named(config) -> str:
    """A config by what it sets: its kwargs, launch options and pre_hook."""
    hook = config.pre_hook
    return f"{config} {'' if hook is None else id(getattr(hook, '__code__', hook))}"


def coming(state: _KeyState):
    """The config a pick of `state`'s key in the forward about to run takes (None: not yet known)."""
    for step in range(len(state.order)):
        name = state.order[(state.start + step) % len(state.order)]
        failure = state.failure.get(name, _UNKNOWN)
        if failure is None or failure is _UNKNOWN:
            return None if failure is _UNKNOWN else name
    return None


def next_forward(checked: bool, probe: bool = False) -> None:
    """A forward starts: every autotuner forgets its picks, so each forward picks (and runs
    the pre_hooks) alike, whatever it is for. A checked forward picks, per key, the next
    config after its last pick, and so does a probe (`probe`: a knock-out, of the trials'
    or of the knock-out round, and the round's checking forwards), which must pick as a trial
    does: a knock-out that ran its last pick again was the one forward whose config did not
    move, and the round's checking forwards moved the rotation past what the trials ran,
    where the timed forwards then ran a variant no trial launched (honest round s47:
    `timed_path_differs` with two kernels and eleven configs). Any other forward (timed,
    profiled) runs the last trial's pick again, so what it runs was checked by a trial, whose
    launches the timed path is held to (judge_timed.judge_timed_path)."""
    _CHECKED[0] = checked and not probe
    _TRIAL[0] = checked and not probe
    pins._TRANSFORM[0] = None  # a trial's, set by the child after this (`autotune_pins.trial`)
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

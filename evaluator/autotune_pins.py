"""Autotuned kernels under the CPU interpreter: the forwards run with a config pinned, held to
agree with a checked forward on the same inputs (evaluator.autotune_cpu picks the rest).

Two kinds, both run before a checked forward, on its inputs, as a checked forward runs:
- a config a key's first pick noted writing otherwise than the chosen one (`_settle`), on a
  later checked forward drawn at random (`schedule`, `due`);
- every config that fits, on every input transform the trials use (`trial`, `met`, `cover`):
  on the GPU the autotuner times its configs on the first forward's tensors and keeps the
  fastest for every later input, so a config must be right on every input the trials hold
  the candidate to, not only on the first pick's (red team rt48: a fast config clamping at
  100, right on randn and wrong on the x1e3 and spiked trials). A config has met a transform
  where a trial of it ran that config (its rotation's pick), where a pinned forward on such a
  trial's inputs ran it, or where a key's first pick in such a trial compared its writes with
  the chosen config's and found them agreeing. Before each trial, every config that fits and
  has not met the trial's transform (the one the trial picks aside) runs in a pinned forward,
  one per config of each key, the keys' pinned together. The first trial is one whose
  transform another trial shares where the plan has one (evaluator.reference.trial_order), so
  a config the first pick noted meets that transform again before a later trial of it.
Both kinds run before a checked forward each in a fork of the child taken just before it
(evaluator.autotune_forks: a forward that remembered its inputs was "honest" in every forward
on them but the first, red team s62f); those with no checked forward left after theirs
(`schedule`'s) run after it in forks of a fork taken before it (`autotune_forks.Standby`, told
which configs by `described`, found there by `resolved`), and each must launch its key: one
whose key no forward after its note launched was never held to anything (red team s63g).
"""
from __future__ import annotations

import math
import secrets
from contextlib import contextmanager

_DRAW = secrets.SystemRandom()
_PIN: dict = {}  # (autotuner id, key) -> the config a pinned forward runs for that key (`pinned`)
_USED: set = set()  # the pins a pinned forward's launches took
_MET: dict = {}  # (autotuner id, key) -> {(config name, transform)} held to a trial on those inputs
_TRANSFORM: list = [None]  # the input transform of the trial in progress (None: not a trial)


class KernelConfigsDisagree(RuntimeError):
    """Two configs of one autotuner compute different results from the same arguments."""


# pinned runs to come: {tuner, key, config (pinned), chosen, wait: checked forwards to let
# pass first (None: not yet drawn), origin: the forward whose first pick noted it}
_PENDING: list = []


def schedule(later: int | None) -> list:
    """After a checked forward: each config its first picks noted (`_settle`) is drawn a later
    checked forward, uniformly among the `later` the worker still runs, before which the
    forward runs once more with that config pinned (`due`), on that forward's inputs, and is
    held to agree with it (`held`). A pinned forward run right after the forward that noted
    it (as before session 47) came at a place a forward counter could name, on inputs it had
    just seen: it behaved there and nowhere else (red team s46). Returns the noted configs
    that no later checked forward is left for: the child runs those now, after this forward,
    on its inputs."""
    now = []
    for pin in [p for p in _PENDING if p["wait"] is None]:
        if later:
            pin["wait"] = _DRAW.randrange(int(later))
        else:
            _PENDING.remove(pin)
            now.append(pin)
    return now


def due() -> list:
    """The pinned runs drawn for the checked forward about to run (called once per checked
    forward, after `next_forward`): run before it, on its inputs."""
    now = []
    for pin in list(_PENDING):
        if pin["wait"] is None:
            continue
        if pin["wait"] == 0:
            _PENDING.remove(pin)
            now.append(pin)
        else:
            pin["wait"] -= 1
    return now


def snapshot(tensors: list) -> list:
    """Copies of the tensors a forward returned or was handed, taken as it returns: the pinned
    and the checked forwards are held to agree by what each left, and a forward that returns (or
    writes) memory it keeps from call to call made a pinned forward's outputs the checked
    forward's own, so any config agreed with the checked one (red team rt64: a config clamping
    at 100 passed every pinned forward on the x1e3 and spiked trials through a kept buffer)."""
    import torch

    return [t.clone() if isinstance(t, torch.Tensor) else t for t in tensors]


def _entries(pin: dict) -> list:
    """(tuner, key, config) of each key a pinned forward pins."""
    return pin.get("cover") or [(pin["tuner"], pin["key"], pin["config"])]


@contextmanager
def pinned(pin: dict):
    """A forward with `pin`'s configs pinned for their keys; every other key picks as the
    checked forward it comes with does (its picks are forgotten before and after)."""
    from evaluator.autotune_cpu import forget_picks

    forget_picks()
    wheres = [(id(tuner), key) for tuner, key, _ in _entries(pin)]
    for (where, (_, _, config)) in zip(wheres, _entries(pin)):
        _PIN[where] = config
        _USED.discard(where)
    try:
        yield
    finally:
        pin["used"] = any(where in _USED for where in wheres)
        _PIN.clear()
        forget_picks()


def took(pin: dict) -> list[bool]:
    """In a pinned forward's process, after it (evaluator.autotune_forks): which of `pin`'s
    keys its launches took."""
    return [(id(tuner), key) in _USED for tuner, key, _ in _entries(pin)]


def described(pin: dict) -> list:
    """`pin` as the standby fork finds it (autotune_forks.Standby): (autotuner id, key, config
    name) per key it pins."""
    from evaluator.autotune_cpu import _named

    for tuner, key, _ in _entries(pin):
        if not all(v is None or isinstance(v, (bool, int, float, str)) for v in key):
            raise KernelConfigsDisagree(f"the autotuned kernel {getattr(tuner.fn, '__name__', tuner)} has a key "
                                        "holding a value that is not a number or a string")
    return [(id(tuner), tuple(key), _named(config)) for tuner, key, config in _entries(pin)]


def any_tuner() -> bool:
    """Whether this process holds an autotuner (one never launched yet included): a standby fork
    is taken only where a pin may be noted (autotune_forks.stand_by)."""
    from evaluator.autotune_cpu import _ORDER, TUNERS

    return bool(_ORDER) or len(TUNERS) > 0


def resolved(entries: list) -> dict:
    """In the standby fork: the pin `described` sent, with this process's objects (the child's as
    they were before the checked forward). An autotuner or config it did not hold yet is a
    stand-in no launch takes, so its key reads as not launched (`took`)."""
    from evaluator.autotune_cpu import _ORDER, TUNERS, _named

    tuners = {id(t): t for t in [*TUNERS, *_ORDER]}
    cover = []
    for tuner_id, key, name in entries:
        tuner = tuners.get(tuner_id)
        state = _ORDER.get(tuner, {}).get(key) if tuner is not None else None
        config = state.named.get(name) if state is not None else \
            next((c for c in getattr(tuner, "configs", ()) if _named(c) == name), None)
        cover.append((tuner, key, config) if config is not None else (object(), key, None))
    return {"cover": cover}


def never_ran(pin: dict) -> None:
    """A config noted at a first pick whose key no forward after the note launched, the last
    checked one's inputs included: it was never held to anything (red team s63g: a key only the
    spike trial launches)."""
    runs = "; ".join(f"the autotuned kernel {getattr(tuner.fn, '__name__', tuner)} with config {config}"
                     for tuner, _, config in _entries(pin))
    raise KernelConfigsDisagree(f"{runs} computed otherwise than the config its first pick chose, and no later "
                                "forward launched its key to hold it to the checked result: every config must "
                                "compute the same result, on every input a key is launched with")


def taken(pin: dict, used: list[bool]) -> None:
    """In the child, of a pinned forward run in a fork: what `pinned` and `met` would have noted
    had it run here (the configs its launches took met the trial's transform)."""
    from evaluator.autotune_cpu import _named

    pin["used"] = any(used)
    for (tuner, key, config), took_it in zip(_entries(pin), used, strict=True):
        if took_it:
            met(tuner, key, _named(config))


def trial(transform: str | None) -> None:
    """A forward starts (after `autotune_cpu.next_forward`): `transform`, the input transform
    of its input set, is the one its configs meet if it is a correctness trial."""
    from evaluator.autotune_cpu import _TRIAL

    _TRANSFORM[0] = transform if _TRIAL[0] else None


def met(tuner, key: tuple, name: str, now: bool = True) -> None:
    """Config `name` of `tuner`'s `key` ran in the trial in progress (or a forward held to it), on
    its inputs: it has met the trial's transform (`now` False: it has not, after all)."""
    if _TRANSFORM[0] is None:
        return
    seen = _MET.setdefault((id(tuner), key), set())
    if now:
        seen.add((name, _TRANSFORM[0]))
    else:
        seen.discard((name, _TRANSFORM[0]))


def cover(due: list = ()) -> list:
    """Before a trial: pinned forwards, one per config that fits and has not met the trial's
    transform, besides the one the trial picks for its key and those `due` pins before it
    (the keys' j-th ones pinned together, in an order drawn per key). Keys first launched in
    this trial are compared at their first pick (autotune_cpu._benchmark) instead."""
    from evaluator.autotune_cpu import _ORDER, _named, coming

    transform = _TRANSFORM[0]
    if transform is None:
        return []
    wanted = []
    for tuner, keys in list(_ORDER.items()):
        for key, state in keys.items():
            seen = _MET.get((id(tuner), key), set()) | {(_named(c), transform) for pin in due
                                                         for t, k, c in _entries(pin) if t is tuner and k == key}
            picks = coming(state)
            todo = [state.named[n] for n in state.listed
                    if state.failure.get(n, False) is None and n != picks and (n, transform) not in seen]
            if todo:
                wanted.append((tuner, key, _DRAW.sample(todo, len(todo)), state.named.get(picks)))
    pins = []
    for j in range(max((len(todo) for _, _, todo, _ in wanted), default=0)):
        entries = [(tuner, key, todo[j]) for tuner, key, todo, _ in wanted if j < len(todo)]
        first = next((w for w in wanted if j < len(w[2])))
        pins.append({"cover": entries, "tuner": first[0], "key": first[1], "config": first[2][j],
                     "chosen": first[3], "transform": transform})
    return pins


def held(pin: dict, again: list, again_inputs: list, outputs: list, inputs: list, floors: object = None) -> None:
    """A pinned forward's outputs (their number, dtypes, shapes and values within DISAGREE) and
    what it left in its inputs, held to what the checked forward on the same inputs returned
    and left (which the worker holds to the reference). A GPU benchmarks all its configs and
    keeps the fastest, which the candidate can make any of them; the trials check one config
    each (min(n, trials) of n), so a wrong config among more configs than trials got through
    in some evaluations (red team s45: one of twelve covering half the output, ok two
    evaluations in five)."""
    import torch

    problem = None
    if len(again) != len(outputs):
        problem = f"returns {len(again)} outputs instead of {len(outputs)}"
    else:
        for i, (a, b) in enumerate(zip(again, outputs)):
            floor = floors[i] if isinstance(floors, list) and i < len(floors) else None
            if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)) or not _agree(a, b, floor):
                problem = f"returns a different output {i}"
                break
    if problem is None:
        for i, (a, b) in enumerate(zip(again_inputs, inputs)):
            if isinstance(b, torch.Tensor) and not (isinstance(a, torch.Tensor) and _agree(a, b)):
                problem = f"leaves a different input {i}"
                break
    if problem is not None:
        runs = "; ".join(f"the autotuned kernel {getattr(tuner.fn, '__name__', tuner)} runs config {config}"
                         for tuner, _, config in _entries(pin))
        if "cover" in pin:
            other = (f"than the trial's configs, on the same inputs (a trial's inputs transformed by "
                     f"`{pin['transform']}`): on the GPU the autotuner picks a config by timing them on the first "
                     "forward's tensors and runs it on every later input, so every config must compute the same "
                     "result on every input")
        else:
            other = ("than another config (where the benchmark picked it, its launch ran on what the other configs "
                     "had written)" if pin["config"] is pin["chosen"] else f"than when it runs {pin['chosen']}")
            other += (", on the same inputs: on the GPU the autotuner runs whichever config its benchmark finds "
                      "fastest, so every config must compute the same result")
        raise KernelConfigsDisagree(f"forward {problem} when {runs} {other} (drop or fix the configs that do not)")


# how far two configs' writes may differ, by the dtype written: rounding of another tiling
# (split-K, another BLOCK_K's order of additions, fp16/bf16 stores), not a part of the result
# left out or scaled (red team s45b: a config scaling by 1.008 passed a 1e-2 norm bound, where
# the checker's own is 5e-3). (of the largest magnitude, relative norm)
DISAGREE = {"float64": (1e-6, 1e-7), "float32": (1e-3, 1e-4), "float16": (1e-2, 2e-3), "bfloat16": (2e-2, 1e-2)}
_OTHER = (2e-2, 1e-2)  # fp8 and the rest


def _agree(a, b, floor: float | None = None) -> bool:
    """Whether `a` agrees with `b` within DISAGREE, relative to `b`'s largest magnitude and norm;
    `floor`: what the two may differ by anyway (absolute, the norm of the difference: twice the
    worker's own floor for this output, the reference's noise on these inputs), else only the
    dtype's least normal number per element. A fixed 1e-6 floor let a config halve an output
    of 1e-6 (mse_close's loss, any loss on x1e-3 inputs) agree: the worker judges it at 1e-9
    (red team rt64)."""
    import torch

    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if not (a.is_floating_point() or a.is_complex()):
        return bool(torch.equal(a, b))
    bound = DISAGREE.get(str(a.dtype).removeprefix("torch."), _OTHER)
    if a.is_complex():  # both parts (double() of a complex tensor keeps the real one only)
        a, b = torch.view_as_real(a.resolve_conj()), torch.view_as_real(b.resolve_conj())
    least = float(torch.finfo(a.dtype).tiny)
    x, y = a.double(), b.double()
    same_nan = torch.equal(torch.isnan(x), torch.isnan(y))
    x, y = torch.nan_to_num(x, nan=0.0), torch.nan_to_num(y, nan=0.0)
    scale = float(y.abs().max()) if y.numel() else 0.0
    diff = (x - y).abs()
    valid = isinstance(floor, (int, float)) and not isinstance(floor, bool) and math.isfinite(floor) and floor > 0
    slack = float(floor) if valid else least
    if not same_nan or (diff.numel() and float(diff.max()) > bound[0] * scale + max(slack, least)):
        return False
    norm_slack = max(slack, least * math.sqrt(max(diff.numel(), 1)))
    return float(torch.linalg.vector_norm(x - y)) <= bound[1] * float(torch.linalg.vector_norm(y)) + norm_slack

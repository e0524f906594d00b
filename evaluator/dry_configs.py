"""Autotuned launches in the dry launch model: every config's grid at the declared sizes.

The dry model (evaluator.dry_launch) runs the forward once in a fresh child, and an autotuned
launch there runs the one config the child's autotuner draws for its key (evaluator.autotune_cpu's
random order). A GPU's autotuner benchmarks every config and keeps the fastest, and a config
whose grid function stops at a constant of its own (`min(cdiv(n, BLOCK), CAP)`, CAP in the
config's meta) does the least work there: nine configs, one capped, were judged on the capped
grid 1 time in 9 and kept an ok at 1.0014 on the CPU (red team s64d), while the GPU keeps the
capped config and leaves 7/8 of a 4096 x 8192 output unwritten. At every CPU size all nine
store every element, so the checked and pinned forwards agree.

So where the declared sizes are modelled (`start(True)`: evaluator.dry_phase asks only there),
each recorded launch of an autotuned kernel also calls its grid function with each other
config's meta (the launch's keyword arguments with the config's, its heuristics called again),
as a GPU's benchmark of the key calls it once per config, and keeps one config per grid and
kernel-read values not already seen (`note`, `_visible`: the kernel's own parameters, so a
config's constexpr that only the kernel body reads, a ROUNDS stopping a persistent loop early
on the drawn config's grid, is a forward of its own: s65d). Configs differing only in launch
options (num_warps, num_stages) move no store and add nothing, so the count stays that of
distinct (grid, constexprs) pairs. A config the child already
knows cannot run on an sm_90 GPU (autotune_cpu's `failure`) is left out, as the GPU's benchmark
leaves it out; one not yet known is modelled (it may only refuse). `variants` then makes one
forward per alternative: variant j swaps every autotuned launch to its j-th alternative grid (in
ascending program count; a launch with fewer keeps its drawn config), and evaluator.dry_phase
judges each as its own forward against the CPU sizes' model, each within a CPU budget of its own
(`modelled`): costly configs modelled first cannot spend a capped config's time.

Each forward's reply says its autotuned launches' configs (`pins`), and `start`'s pin runs a
forward under another's (dry_phase `_Pinned`: the CPU's sizes under a declared forward's configs).

Past MAX_GRIDS distinct ones for one launch the forward is not modelled config by config:
it is refused (`past`, dry_phase: `timeout`, the CPU cannot judge it as the GPU does), never a
kept ok. Variant j pairs j-th alternatives only, where a GPU's benchmarks choose each key's
config alone: with two or more autotuned launches, what every choice of configs stores
(`Least`, from the forwards' own launches: no forward of its own) is judged by dry_phase's
union rules. Not
covered (docs/open_attacks/README.md): the update and overwrite rules under pairs other than
variant j's, and a config modelled past the model's time (the pace give-up).
"""
from __future__ import annotations

import dataclasses
import math
from functools import partial

import numpy as np

MAX_GRIDS = 32  # distinct (grid, constexprs) one autotuned launch may take at the declared sizes

_ON = [False]
_MADE: dict[int, tuple] = {}  # ordinal of a recorded launch -> ((config name, grid, kwargs), ...)
_PAST: list[str] = []  # launches past MAX_GRIDS (`past`)
_DRAWN: dict[int, tuple] = {}  # ordinal of a recorded autotuned launch -> (kernel, its drawn config)
_PIN: dict[int, tuple] = {}  # ordinal -> (kernel, config) asked for (`pinned`), and whether all were met
_MISSED: list[str] = []


def start(on: bool, pin: list | None = None) -> None:
    """A dry forward starts: note the configs of its autotuned launches only where `on`; with
    `pin` ([ordinal, kernel, config] of another forward's `pins`), run each named launch with
    that config instead of its drawn one (`pinned`)."""
    _ON[0] = bool(on)
    _MADE.clear()
    _PAST.clear()
    _DRAWN.clear()
    _PIN.clear()
    _MISSED.clear()
    for ordinal, kernel, config in pin or ():
        _PIN[int(ordinal)] = (str(kernel), str(config))


def note(ordinal: int, kernel: object, args: tuple, kwargs: dict, drawn: tuple, grid_of) -> None:
    """For the recorded launch `ordinal` of `kernel` (its `drawn` grid), the other configs of the
    autotuner that wraps it, one per grid and kernel-read values not seen (`grid_of(kwargs)`
    calls the launch's grid function with that launch's meta, as the launch hook resolves it)."""
    tuner = _tuner(kernel)
    if tuner is None:
        return
    from evaluator.launch_hook import with_heuristics

    _DRAWN[ordinal] = (_kernel_name(kernel), _drawn(tuner, kwargs))
    if _PIN:
        return _pinned(ordinal, tuner, args, kwargs, grid_of)
    if not _ON[0]:
        return
    names = set(getattr(kernel, "arg_names", None) or ())
    seen, found = {(_three_dims(drawn), _visible(names, kwargs))}, []
    for name, config in _fitting(tuner, kwargs):
        given, _ = with_heuristics(tuner.fn, args, {**kwargs, **config.all_kwargs()})
        dims = _three_dims(grid_of(given))
        if (dims, _visible(names, given)) in seen:
            continue
        seen.add((dims, _visible(names, given)))
        found.append((name, dims, given))
    if len(found) + 1 > MAX_GRIDS:
        _PAST.append(f"{_kernel_name(kernel)}: {len(found) + 1} grids")
    _MADE[ordinal] = tuple(sorted(found, key=lambda made: math.prod(made[1])))


def _pinned(ordinal: int, tuner, args: tuple, kwargs: dict, grid_of) -> None:
    """Launch `ordinal` with the config `start`'s pin names for it (any of the autotuner's
    configs, pruned at these sizes or not: the model runs it where no GPU would pick it), as
    one alternative (`_MADE`); a launch the pin names no config for, or names another kernel
    for, keeps its drawn config and is said in `pin_missed`."""
    from evaluator.launch_hook import with_heuristics

    kernel, wanted = _PIN.get(ordinal, (None, None))
    config = next((c for c in tuner.configs if str(c) == wanted), None)
    if kernel != _DRAWN[ordinal][0] or config is None:
        _MISSED.append(f"{_DRAWN[ordinal][0]}#{ordinal}")
        return
    given, _ = with_heuristics(tuner.fn, args, {**kwargs, **config.all_kwargs()})
    _MADE[ordinal] = ((f"{wanted} ", _three_dims(grid_of(given)), given),)  # as autotune_cpu._named


def pin_missed() -> str | None:
    """Why a pinned forward (`start`'s pin) is not the forward it was asked to be: an autotuned
    launch it has no config of the pin for, or a pinned launch it does not make."""
    unmet = [f"#{k}" for k in _PIN if k not in _DRAWN]
    return "; ".join([*_MISSED, *unmet]) or None if _PIN else None


def pins(j: int | None = None) -> list:
    """[ordinal, kernel, config] of each autotuned launch of the drawn forward (j None) or of
    alternative forward j (`variants`): what a forward at other sizes is pinned to
    (evaluator.dry_phase `_repinned`)."""
    out = []
    for ordinal, (kernel, config) in sorted(_DRAWN.items()):
        made = _MADE.get(ordinal) or ()
        if j is not None and j < len(made):
            config = _config_text(made[j][0])
        out.append([ordinal, kernel, config])
    return out


def _drawn(tuner, kwargs: dict) -> str | None:
    """The config this forward's launch of `tuner`'s key runs (autotune_cpu's pick)."""
    from evaluator import autotune_cpu

    state = autotune_cpu._ORDER.get(tuner, {}).get(autotune_cpu._key(tuner, kwargs))
    if state is None or state.last is None:
        return None
    return _config_text(state.order[state.last])


def _config_text(name: str) -> str:
    """A config as `str(config)` says it: autotune_cpu._named less its pre_hook's id (a number
    of this process only)."""
    return name.rpartition(" ")[0] if " " in name else name


def _kernel_name(kernel: object) -> str:
    return str(getattr(getattr(kernel, "fn", kernel), "__name__", "?"))  # dry_launch.Launch.name


def past() -> str | None:
    """Why this forward's configs are not modelled one by one (more than MAX_GRIDS grids)."""
    return "; ".join(_PAST) if _PAST else None


def variants(launches: list) -> list[tuple[str, list]]:
    """(label, launches) per alternative forward: the j-th takes each autotuned launch's j-th
    alternative config (`note`), the others as drawn."""
    count = max((len(made) for made in _MADE.values()), default=0)
    out = []
    for j in range(count):
        swapped, label = list(launches), []
        for ordinal, made in sorted(_MADE.items()):
            if j < len(made) and ordinal < len(swapped):
                name, dims, given = made[j]
                swapped[ordinal] = dataclasses.replace(swapped[ordinal], grid=dims, kwargs=given)
                label.append(f"{swapped[ordinal].name}#{ordinal} with config {name.strip()}")
        out.append(("; ".join(label), swapped))
    return out


class Least:
    """What the forward stores under every choice of its autotuned launches' configs at once:
    a GPU's benchmarks pick each key's config alone, and variant j pairs only j-th with j-th
    (two kernels each with a cap that is right alone and wrong together, at different ranks,
    were never paired: s65d). Fed each launch's own stores (dry_launch `current`) by the drawn
    forward and every variant, so each autotuned launch is seen under each of its configs; an
    element is stored under every choice only where a launch without alternatives stored it, or
    every config of one autotuned launch did (`reply`). No forward of its own: the variants
    already run each config, and another forward would press the dry command's wall cap. May
    refuse more than one real choice would (a launch's choice taken element by element)."""

    def __init__(self, tuned: set):
        self.tuned, self.fixed, self.common, self.seen = tuned, {}, {}, {}
        self.sizes: dict = {}  # storage key -> (name, bytes)

    def observe(self, k: int, memory, names: dict) -> None:
        """Launch `k` of one forward has run: its stores, per storage and element size."""
        self.seen[k] = self.seen.get(k, 0) + 1
        for key, storage in memory.storages.items():
            if key not in names:  # a storage only an unconverted launch was handed (dry_launch.stored)
                continue
            self.sizes[key] = (names[key], storage.nbytes)
            for itemsize, bits in storage.current.items():
                at = (k, key, itemsize) if k in self.tuned else (key, itemsize)
                if k not in self.tuned:
                    self.fixed[at] = bits | self.fixed[at] if at in self.fixed else bits.copy()
                elif at not in self.common:
                    self.common[at] = [bits.copy(), 1]
                else:
                    self.common[at] = [self.common[at][0] & bits, self.common[at][1] + 1]

    def reply(self) -> dict:
        """`stored`'s storages (their "stored" counts only) for the elements stored under every
        choice; a tuned launch's stores in a storage count only where each of its forwards
        stored there."""
        union: dict = {key: bits.copy() for key, bits in self.fixed.items()}
        for (k, key, itemsize), (bits, times) in self.common.items():
            if times == self.seen.get(k):
                union[(key, itemsize)] = union[(key, itemsize)] | bits if (key, itemsize) in union else bits
        out = {name: {"bytes": nbytes, "stored": {}} for name, nbytes in self.sizes.values()}
        for (key, itemsize), bits in union.items():
            out[self.sizes[key][0]]["stored"][str(itemsize)] = int(np.count_nonzero(bits))
        return {"storages": out}


_PENDING: list = []  # the declared sizes' forwards, left for the dry command's second step (`rest`)


def modelled(launches: list, budget, outputs: tuple, skip: frozenset, model=None, stepped: bool = False) -> dict:
    """The dry reply (`_all`); with `stepped` and alternative forwards to model, {"forwards": n}
    first, the forwards kept for `rest`: the host sets the next step's wall cap and the job's
    CPU limit in units of these forwards (evaluator.dry_phase `_granted`, bounded there: the count
    is the child's claim), each forward still within a budget of its own."""
    if past() is not None:
        return {"configs_past": past()[:300]}
    if _PIN:  # one forward: the pinned one (`start`)
        if pin_missed() is not None:
            return {"unmodelled": f"no forward with the pinned configs: {pin_missed()}"[:300]}
        return {**_all([variants(launches)[0] if _MADE else ("", launches)], budget, outputs, skip, model),
                "pins": pins(0)}
    forwards = [("", launches), *variants(launches)]
    _PENDING.clear()
    if stepped and len(forwards) > 1:
        _PENDING.append(partial(_all, forwards, budget, outputs, skip, model))
        return {"forwards": len(forwards)}
    return _all(forwards, budget, outputs, skip, model)


def rest() -> dict:
    """The forwards `modelled` left for the dry command's second step, modelled now."""
    if not _PENDING:
        return {"unmodelled": "no forwards were left to model"}
    return _PENDING.pop()()


def _all(forwards: list, budget, outputs: tuple, skip: frozenset, model=None) -> dict:
    """The dry reply of the drawn forward ({"storages", "launches"} or {"unmodelled"}: `model`,
    evaluator.dry_launch.stored by default), with "variants": each alternative forward's reply
    and its "config"; every forward modelled smallest first (programs in all), each within a
    budget of its own as large as `budget` (evaluator.dry_launch.Budget: CPU seconds): sharing
    one, six decoy configs over the whole output with fewer programs than the capped config,
    their stores repeated to cost the model ~20 s each, spent it before the capped one was
    reached and kept an ok at 1.0015 (session 64). Their sum is bounded from the host (the dry
    command's wall cap, the job's CPU limit, both in units of these forwards: a refusal)."""
    tuned = {ordinal for ordinal, made in _MADE.items() if made}
    least = Least(tuned) if len(tuned) > 1 and model is None else None
    order = sorted(range(len(forwards)), key=lambda i: sum(math.prod(x.grid) for x in forwards[i][1]))
    replies, spent = {}, 0.0
    for i in order:  # each forward its own budget: decoy configs cannot spend a capped one's
        own = type(budget)(budget.budget_s, budget.cpu)
        observe = None if least is None else least.observe
        replies[i] = (model or partial(_stored, budget=own, outputs=outputs, skip=skip, observe=observe))(forwards[i][1])
        spent += own.used()
    reply = {**replies[0], "pins": pins()}
    if len(forwards) > 1:
        reply["variants"] = [{**replies[i], "config": forwards[i][0], "pins": pins(i - 1)}
                             for i in range(1, len(forwards))]
    if least is not None and all("storages" in one for one in replies.values()):  # the union rules alone
        reply["variants"].append({**least.reply(), "launches": reply["launches"], "config": LEAST})
    reply["cpu_s"] = round(spent, 3)
    return reply


LEAST = "every autotuned launch storing only what all of its configs store"  # `Least`'s label


def _stored(made: list, budget, outputs: tuple, skip: frozenset, observe=None) -> dict:
    """evaluator.dry_launch.stored's reply for one forward's launches (or why it has none)."""
    from evaluator.dry_launch import Unmodelled, stored

    unrun: list = []
    branched: list = []  # launches a test the data decides stopped: dry_phase `_steered`
    try:
        reply = {"storages": stored(made, budget, outputs, skip, unrun, observe, branched),
                 "launches": [[x.name, list(x.grid)] for x in made]}
        if branched:
            reply["branched"] = branched[:8]
        return {**reply, "unrun": unrun[:8]} if unrun else reply
    except Unmodelled as exc:
        return {"unmodelled": str(exc)[:300]}


def tag(kernel: object, kwargs: dict) -> str | None:
    """`qualname[K=v,...]`: a launch of an autotuned kernel named with its config's constexprs
    (the keys of every config of the autotuners wrapping `kernel`, their values in the launch's
    `kwargs`), the same at any sizes; None for a kernel no autotuner wraps, or one whose configs
    set no constexpr. The knock-out round names what it skipped by it, and the dry model skips
    an autotuned launch only under a config the round skipped it under (evaluator.dry_phase
    `_skipped`): each forward of the round runs one config per key, so a finding that a kernel
    is unneeded there says nothing of the others. A ReLU autotuned over a capped config, found
    unneeded by a knock-out of the capped config's identity in a forward running another config
    (which skipped nothing), stored nothing under the capped one at both sizes, and its capped
    in-place update kept an ok at 1.0013 (red team s68b)."""
    from evaluator import autotune_cpu, kernel_identity

    keys = {str(k) for tuner in list(autotune_cpu.TUNERS) if _inner(tuner) is kernel
            for config in list(getattr(tuner, "configs", None) or ())
            for k in _own_kwargs(config)}
    if not keys:
        return None
    values = ",".join(f"{k}={kernel_identity._value(kwargs.get(k), 1)}" for k in sorted(keys))  # no candidate code run
    return f"{kernel_identity.qualname(kernel)}[{values}]"


def _own_kwargs(config: object) -> dict:
    """A config's constexprs (`kwargs`), or none where it holds no dict (never raises in a
    knock-out's launch: a raise there would be the round's, not the candidate's)."""
    kwargs = getattr(config, "kwargs", None)
    return kwargs if type(kwargs) is dict else {}


def _inner(tuner) -> object:
    """The kernel an autotuner wraps, through any heuristics."""
    from triton.runtime.autotuner import Heuristics

    inner = tuner.fn
    while isinstance(inner, Heuristics):
        inner = inner.fn
    return inner


def _tuner(kernel: object):
    """The autotuner (evaluator.autotune_cpu.TUNERS) whose launch this is: one running now
    (its `nargs` set by Autotuner.run) that wraps `kernel`, through any heuristics."""
    from evaluator import autotune_cpu

    for tuner in list(autotune_cpu.TUNERS):
        if _inner(tuner) is kernel and getattr(tuner, "nargs", None) is not None:
            return tuner
    return None


def _fitting(tuner, kwargs: dict) -> list:
    """(name, config) of the key's pruned configs (autotune_cpu's `_KeyState`) but those known
    not to run on an sm_90 GPU; every config where the key has no state."""
    from evaluator import autotune_cpu

    state = autotune_cpu._ORDER.get(tuner, {}).get(autotune_cpu._key(tuner, kwargs))
    if state is None:
        return [(autotune_cpu._named(config), config) for config in tuner.configs]
    return [(name, config) for name, config in state.named.items()
            if state.failure.get(name) is None]


def _visible(names: set, kwargs: dict) -> tuple:
    """What of a launch's keyword arguments its kernel's own code reads (its parameters: a
    config's constexprs, a heuristic's values), with a config's launch options (num_warps,
    num_stages), which move no store, left out: two configs on one grid differ in where they
    store only by these (a ROUNDS constexpr stopping a persistent loop early, s65d)."""
    return tuple(sorted((k, repr(v)) for k, v in kwargs.items() if k in names and _plain(v)))


def _plain(value) -> bool:
    return value is None or isinstance(value, (bool, int, float, str))


def _three_dims(grid) -> tuple:
    """A grid as Triton takes it (launch_hook._dims: exact ints, KernelArgumentError for anything
    else, as the launch itself raises), padded to three (a 1-D grid and its (n, 1, 1) are one)."""
    from evaluator.launch_hook import _dims

    dims = _dims(grid)
    return dims + (1,) * (3 - len(dims))

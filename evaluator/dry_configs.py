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

Past MAX_GRIDS distinct ones for one launch the forward is not modelled config by config:
it is refused (`past`, dry_phase: `timeout`, the CPU cannot judge it as the GPU does), never a
kept ok. Variant j pairs j-th alternatives only, where a GPU's benchmarks choose each key's
config alone: with two or more autotuned launches one more forward (`combined`) gives each only
what all of its configs store (`least`), and dry_phase judges it by the union rules. Not
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


def start(on: bool) -> None:
    """A dry forward starts: note the configs of its autotuned launches only where `on`."""
    _ON[0] = bool(on)
    _MADE.clear()
    _PAST.clear()


def note(ordinal: int, kernel: object, args: tuple, kwargs: dict, drawn: tuple, grid_of) -> None:
    """For the recorded launch `ordinal` of `kernel` (its `drawn` grid), the other configs of the
    autotuner that wraps it, one per grid and kernel-read values not seen (`grid_of(kwargs)`
    calls the launch's grid function with that launch's meta, as the launch hook resolves it)."""
    tuner = _tuner(kernel) if _ON[0] else None
    if tuner is None:
        return
    from evaluator.launch_hook import with_heuristics

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
        _PAST.append(f"{getattr(getattr(kernel, 'fn', kernel), '__name__', '?')}: {len(found) + 1} grids")
    _MADE[ordinal] = tuple(sorted(found, key=lambda made: math.prod(made[1])))


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


def combined(launches: list) -> list:
    """The forward whose every autotuned launch with alternatives stores only what each of its
    configs stores (`least`), where two or more have them: a GPU's benchmarks pick each key's
    config on its own, and variant j pairs only j-th with j-th (two kernels each with one
    capped config, right alone and wrong together, were never paired: s65d). An element this
    forward leaves unstored is one some choice of configs leaves unstored (each launch's
    choice may differ element by element, so it may refuse more than one real choice would:
    configs that store different elements each covered by another kernel's)."""
    tuned = {ordinal: made for ordinal, made in _MADE.items() if made and ordinal < len(launches)}
    if len(tuned) < 2:
        return []
    out = list(launches)
    for ordinal, made in tuned.items():
        drawn = out[ordinal]
        out[ordinal] = dataclasses.replace(drawn, alternatives=((drawn.grid, drawn.kwargs),
                                                                *((dims, given) for _, dims, given in made)))
    return out


def least(launch, memory, run) -> None:
    """Mark in `memory` the elements every one of `launch`'s alternatives stores, each run
    alone (`run`) with its stores captured (`captured`), not marked."""
    common = None
    for grid, kwargs in launch.alternatives:
        memory.capture = {}
        try:
            run(dataclasses.replace(launch, grid=grid, kwargs=kwargs, alternatives=()))
        finally:
            caught, memory.capture = memory.capture, None
        common = caught if common is None else \
            {k: (storage, bits & caught[k][1]) for k, (storage, bits) in common.items() if k in caught}
    for (_, itemsize), (storage, bits) in (common or {}).items():
        storage.mark(np.flatnonzero(bits) * itemsize, itemsize, memory.kernel, memory.writer, memory.launch)


def captured(memory, storage, offsets, itemsize: int) -> bool:
    """Whether a store is one config's (`least`): kept in `memory.capture`, not marked."""
    if memory.capture is None or storage.nbytes // itemsize > _max_elements():
        return False
    key = (id(storage), itemsize)
    if key not in memory.capture:
        memory.capture[key] = (storage, np.zeros(storage.nbytes // itemsize, dtype=bool))
    memory.capture[key][1][offsets // itemsize] = True
    return True


def _max_elements() -> int:
    from evaluator.dry_launch import MAX_ELEMENTS

    return MAX_ELEMENTS


def modelled(launches: list, budget, outputs: tuple, skip: frozenset, model=None) -> dict:
    """The dry reply of the drawn forward ({"storages", "launches"} or {"unmodelled"}: `model`,
    evaluator.dry_launch.stored by default), with "variants": each alternative forward's reply
    and its "config"; every forward modelled smallest first (programs in all), each within a
    budget of its own as large as `budget` (evaluator.dry_launch.Budget: CPU seconds): sharing
    one, six decoy configs over the whole output with fewer programs than the capped config,
    their stores repeated to cost the model ~20 s each, spent it before the capped one was
    reached and kept an ok at 1.0015 (session 64). Their sum is bounded from the host (the dry
    command's wall cap, the job's CPU limit: a refusal). {"configs_past": why} past MAX_GRIDS
    (`past`): dry_phase refuses it."""
    if past() is not None:
        return {"configs_past": past()[:300]}
    forwards = [("", launches), *variants(launches)]
    least_of = combined(launches)
    if least_of:  # judged by the union rules alone (evaluator.dry_phase)
        forwards.append((LEAST, least_of))
    order = sorted(range(len(forwards)), key=lambda i: sum(_programs(x) for x in forwards[i][1]))
    replies, spent = {}, 0.0
    for i in order:  # each forward its own budget: decoy configs cannot spend a capped one's
        own = type(budget)(budget.budget_s, budget.cpu)
        replies[i] = (model or partial(_stored, budget=own, outputs=outputs, skip=skip))(forwards[i][1])
        spent += own.used()
    reply = replies[0]
    if len(forwards) > 1:
        reply["variants"] = [{**replies[i], "config": forwards[i][0]} for i in range(1, len(forwards))]
    reply["cpu_s"] = round(spent, 3)
    return reply


LEAST = "every autotuned launch storing only what all of its configs store"  # `combined`'s label


def _programs(launch) -> int:
    return sum(math.prod(grid) for grid, _ in launch.alternatives) or math.prod(launch.grid)


def _stored(made: list, budget, outputs: tuple, skip: frozenset) -> dict:
    """evaluator.dry_launch.stored's reply for one forward's launches (or why it has none)."""
    from evaluator.dry_launch import Unmodelled, stored

    try:
        return {"storages": stored(made, budget, outputs, skip), "launches": [[x.name, list(x.grid)] for x in made]}
    except Unmodelled as exc:
        return {"unmodelled": str(exc)[:300]}


def _tuner(kernel: object):
    """The autotuner (evaluator.autotune_cpu.TUNERS) whose launch this is: one running now
    (its `nargs` set by Autotuner.run) that wraps `kernel`, through any heuristics."""
    from triton.runtime.autotuner import Heuristics

    from evaluator import autotune_cpu

    for tuner in list(autotune_cpu.TUNERS):
        inner = tuner.fn
        while isinstance(inner, Heuristics):
            inner = inner.fn
        if inner is kernel and getattr(tuner, "nargs", None) is not None:
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

"""Autotuned kernels under the CPU interpreter: which config each checked forward runs.

Under the interpreter there is no device driver to benchmark an autotuner's configs with
(Triton raises "0 active drivers"), and CPU timings would say nothing about which config a
GPU picks: the GPU runs the one its benchmark finds fastest, which a candidate can make the
one that cheats (red team s43: a config whose grid covers half the output moves half the
bytes). So the CPU checks as many of the configs as it has checked forwards:
- the configs its pruning leaves are put in a random order (`secrets`) once per autotuner;
- each correctness trial (`next_trial`, called by the child before each checked forward)
  forgets the autotuner's picks, and each key then runs the next config in that order that
  fits an sm_90 block (`device_compile.fits`: a GPU benchmark takes OutOfResources and
  PTXASError as infinitely slow), kept for the rest of the trial as a GPU keeps its pick;
- the timed forwards run the last trial's configs, so every variant timed was checked.
With n configs that fit and t trials (five by default), min(n, t) of them are checked in one
evaluation; before session 44 one was (any wrong config among two got through one
evaluation in two), and before session 43 always the first. Where none fits, the first
config runs and fails as on the GPU. On the GPU nothing here runs: the autotuner benchmarks.
"""
from __future__ import annotations

import secrets
import weakref

_DRAW = secrets.SystemRandom()
# autotuner -> [its configs in a random order (drawn once), where the next trial starts, the
# position of its last pick]: keyed weakly, as the autotuner is the candidate's
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


def _pick(tuner, configs: list, kwargs: dict):
    """The first config at or after this trial's start, in the tuner's order, that fits."""
    from evaluator.device_compile import fits

    state = _ORDER.get(tuner)
    if state is None or {id(c) for c in state[0]} != {id(c) for c in configs}:
        # a pruning that depends on the key leaves other configs: their own order
        state = _ORDER[tuner] = [_DRAW.sample(configs, len(configs)), 0, None]
    order, start, _ = state
    args = tuple(tuner.nargs.values())
    for step in range(len(order)):
        position = (start + step) % len(order)
        config = order[position]
        if config.pre_hook is not None:  # as the GPU's benchmark runs it first (tutorial 09's TMA shapes)
            config.pre_hook({**tuner.nargs, **kwargs, **config.all_kwargs()})
        if fits(tuner.fn, args, {**kwargs, **config.all_kwargs()}):
            state[2] = position
            return config
    return configs[0]


def next_trial() -> None:
    """A checked forward starts: every autotuner forgets its picks, and picks next from the
    config after its last one."""
    for tuner, state in list(_ORDER.items()):
        if state[2] is not None:
            state[1] = (state[2] + 1) % len(state[0])
        cache = getattr(tuner, "cache", None)
        if isinstance(cache, dict):
            cache.clear()

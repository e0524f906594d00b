"""Trial plan and reference outputs: computed by the trusted child, cached in the worker.

A plan fixes the seeds of one evaluation's correctness trials: the weight-init seed
(Model and ModelNew are built under the same seed, the KernelBench convention) and the
trials (`settings.trials` base-distribution seeds plus one per configured distribution).
Timing inputs are not part of it: they are drawn from the OS for every evaluation
(evaluator.stopwatch). The trusted reference child runs the problem's Model on the
trials and returns outputs, input digests and the inputs its forward modified; those
are cached per (problem content, device, sizes, plan) up to reference_cache_bytes, so
the N samples of one prompt cost one reference run.
"""
from __future__ import annotations

import json
import random
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig
from evaluator.sandbox import ChildFailure


@dataclass(frozen=True)
class TrialPlan:
    init_seed: int
    trials: tuple[tuple[int, str], ...]  # (seed, distribution) for correctness
    knockout: tuple[int, str]             # inputs of the knock-out run, never seen otherwise
    torch_knockout: tuple[int, str] | None = None  # inputs of the strict policy's torch knock-out


def _kind(distribution: str) -> str:
    return distribution.partition(":")[0]


def make_plan(cfg: EvaluatorConfig, base_seed: int, n_base_trials: int,
              distributions: Sequence[str] | None = None) -> TrialPlan:
    """The seeds and input distributions of one evaluation's correctness trials.

    `base_seed` is the worker's secret (drawn from the OS at start-up unless configured),
    so the trials are the same for every candidate of a worker (their reference outputs
    are cached) but unknowable to any of them. `distributions` (a problem's own list)
    replaces the configured extra trials when given, except the spike: a problem opts out of
    a scale that leaves it ill-conditioned, never out of the one trial where a sample of a
    reduction or an overflow-unsafe kernel (exp of raw attention scores) is wrong. sdpa's list
    of the day, x1e-3 only, later left it with no input larger than its own (red team B,
    session 19: a softmax without the row max, NaN past a score of 88, ok at reward 1.0)."""
    extra = list(cfg.correctness.distributions if distributions is None else distributions)
    if distributions is not None and not any(_kind(d) == "spike" for d in extra):
        extra += [d for d in cfg.correctness.distributions if _kind(d) == "spike"]
    dists = ["base"] * n_base_trials + extra
    return TrialPlan(init_seed=base_seed, trials=tuple((base_seed + 1 + i, d) for i, d in enumerate(dists)),
                     knockout=(base_seed + 777, "base"),
                     torch_knockout=(base_seed + 778, "base") if cfg.policy.name == "strict" else None)


@dataclass
class ReferenceOutputs:
    """Per correctness trial: reference facts (transform, digest, modified inputs) and the
    outputs, followed by the inputs the reference's forward modified, in input order."""

    trials: list[dict]               # {"outputs": [{dtype, shape}], "modified": [i], "transform", "digest"}
    outputs: list[list[torch.Tensor]]
    inputs_after: list[list[torch.Tensor]]
    knockout: list[torch.Tensor]     # outputs for the plan's knock-out inputs
    # per trial, per output: its precision deviation [max, norm, residual] or None (evaluator.precision:
    # TF32's for a float32 output, the float32 forward's for a half one); [] = none
    tf32: list[list] = field(default_factory=list)
    torch_knockout: list[torch.Tensor] = field(default_factory=list)  # outputs for its inputs (strict)
    torch_knockout_tf32: list = field(default_factory=list)  # its TF32 deviations, as tf32's
    plan: TrialPlan | None = None  # the trials these outputs are for (a big problem's are fewer)
    base: list | None = None  # per output, judge.Base: computed once, read by every evaluation
    scales: list | None = None  # per trial and output, its atol scale (judge.atol_scales), once
    answer_kind: str = ""  # how the answer moves with the inputs, once (evaluator.gates.answer_kind)
    init: str = "host"  # where the Model's parameters were drawn (model_build.build); every later build follows
    numbers: tuple = ()  # the float sequences the Model's construction computed (evaluator.problem_numbers)

    @property
    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for group in (self.outputs, self.inputs_after,
                                                              [self.knockout, self.torch_knockout])
                   for outs in group for t in outs)


def timing_transform(ref: ReferenceOutputs) -> str:
    """The inputs every timed run draws: spiked (evaluator.input_transforms.spike) where the plan has a
    spike trial whose reference stayed finite, else the problem's own. A timed forward that
    estimates a global reduction from a sample is then wrong on every run it is revealed on,
    and it cannot tell a timed run from a trial by its inputs' distribution."""
    return next((str(t["transform"]) for t in ref.trials
                 if str(t.get("transform", "")).startswith("spike") and t.get("finite")), "base")


class ProblemFailed(Exception):
    """The problem's own code failed in the trusted child (message for the verdict)."""


class ProblemRaised(ProblemFailed):
    """The problem's own code raised (an error reply), not the child's failure (a timeout, a
    crash): the sizes asked for are ones it cannot take (evaluator.depth_phase._coupled)."""


def reference_timeout() -> ChildFailure:
    """A reference command that ran out of time once the candidate had run is the evaluation's
    `timeout`, not "the problem failed": the candidate shared the machine with it (the device,
    the host's cores), so its slowness there may be the candidate's doing, and a verdict that
    is the problem's is one the actor never trains on (red team: a failure made to look like
    the problem's). Where the reference is slow for everyone, every sample of the problem
    gets the same 0 and a group-relative advantage learns nothing from it. No log tail: the
    reference child's output is not the candidate's to read."""
    return ChildFailure("timeout", "the reference's command ran out of time after your kernel ran")


class OverCap(Exception):
    """A capped measuring run ran out of device memory: it needs a larger reservation."""


def split_outputs(trials: list[dict], tensors: list[torch.Tensor]) -> tuple[list, list, list]:
    """Per trial of a `run` reply: (outputs, returned inputs, TF32 deviations per output:
    the reference child's numbers, read only from it)."""
    outs, back, alt, i = [], [], [], 0
    for t in trials:
        if t.get("problem") or t.get("error"):
            outs.append([])
            back.append([])
            alt.append([])
            continue
        n, m = len(t["outputs"]), int(t.get("returned_inputs", 0))
        outs.append(tensors[i:i + n])
        back.append(tensors[i + n:i + n + m])
        alt.append(list(t.get("tf32") or []))
        i += n + m
    return outs, back, alt


def reply_size(t: dict) -> int:
    """How many tensors one `run` result carries."""
    if t.get("problem") or t.get("error"):
        return 0
    return len(t["outputs"]) + int(t.get("returned_inputs", 0))


class ReferenceCache:
    """LRU of ReferenceOutputs bounded by total tensor bytes (thread-safe), with
    single-flight computation: concurrent evaluations of a new problem compute its
    reference once (`computing(key)`), the others wait for it and hit the cache."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._items: OrderedDict[str, ReferenceOutputs] = OrderedDict()
        self._lock = threading.Lock()
        self._flights: dict[str, list] = {}  # key -> [lock, users]
        self.hits = self.misses = 0

    @contextmanager
    def computing(self, key: str) -> Iterator[None]:
        """Held while one thread computes `key`; others asking for the same key wait."""
        with self._lock:
            flight = self._flights.setdefault(key, [threading.Lock(), 0])
            flight[1] += 1
        try:
            with flight[0]:
                yield
        finally:
            with self._lock:
                flight[1] -= 1
                if not flight[1]:
                    del self._flights[key]

    @staticmethod
    def key(problem: Any, device: str, sizes: dict, plan: TrialPlan) -> str:
        return json.dumps([problem.content_hash(), device, sizes, plan.init_seed, plan.trials, plan.knockout,
                           plan.torch_knockout], sort_keys=True, default=str)

    def get(self, key: str) -> ReferenceOutputs | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self.hits += 1
            self._items.move_to_end(key)
            return item

    def put(self, key: str, value: ReferenceOutputs) -> None:
        if value.nbytes > self.max_bytes:
            return
        with self._lock:
            self._items[key] = value
            while sum(v.nbytes for v in self._items.values()) > self.max_bytes:
                self._items.popitem(last=False)


def trial_order(n: int, knockouts: list[int], rng: random.Random | None = None,
                firsts: Sequence[int] = (), plain: Sequence[int] | None = None) -> list[int]:
    """The checked forwards' order: trials 0..n-1 and the knock-out sets, shuffled by the OS's
    randomness, except that the module's first forward is a trial: a module that prepares
    state on its first call (folds BN statistics into a scale, packs weights) cached a
    knock-out's noise, and an honest file's verdict followed the shuffle (honest round,
    session 20). The knock-outs stay at random places among the rest, on fresh inputs.
    `firsts`: where given, the trials that may come first (`shared_transforms`: the CPU holds
    an autotuner's configs to a transform in a pinned forward before a later trial of it).

    `plain`: where given, the trials on the problem's own inputs (`plain_trials`; the
    knock-outs' are too): every other trial (scaled, spiked) comes right after a forward on
    such inputs, as far as there are enough of them. A module keeps what it likes between
    forwards, and a forward that behaved only where the one before it had large inputs was
    checked on large inputs only where the shuffle put the spiked trial right before the
    scaled one: ok 1 time in 5 on the CPU and the GPU alike (session 66, the CI run of s62f's
    streak hack). In use a forward follows forwards on the problem's own inputs; a wrong
    result after a large input is left to the timed runs, which follow timed runs on large
    (spiked) inputs and are revealed at random (evaluator.stopwatch). Where one trial is on the
    problem's own inputs (a plan of one base trial, or `reference_phase.trials_kept`'s for large
    outputs), a scaled or spiked trial leads: led by that trial, the next forward on such inputs
    was the knock-out every time, which a forward reading its inputs' magnitude told apart (red
    team s67G); led by a loud one, the two stand in either order."""
    draw = rng or secrets.SystemRandom()
    if plain is None:
        order = [*range(n), *knockouts]
        draw.shuffle(order)
        first = next(i for i, s in enumerate(order) if s < n and (not firsts or s in firsts))
        order[0], order[first] = order[first], order[0]
        return order
    quiet = [*(t for t in range(n) if t in plain), *knockouts]
    loud = [t for t in range(n) if t not in plain]
    draw.shuffle(quiet)
    draw.shuffle(loud)
    may_lead = [s for s in (*quiet, *loud) if s < n and (not firsts or s in firsts)]
    if sum(1 for s in quiet if s < n) < 2:  # one quiet trial: it leads, the knock-out is the next quiet
        may_lead = [s for s in loud if s in may_lead] + may_lead  # forward (red team s67G): a loud one does
    first = may_lead[0]  # a quiet trial where one may lead (and two or more are): first in `may_lead`
    units = [[s] for s in quiet if s != first]  # a quiet forward and the loud trial after it
    head = [first]
    holders = ([head] if first in quiet else []) + units
    loud = [s for s in loud if s != first]
    for unit, trial in zip(draw.sample(holders, len(holders)), loud):
        unit.append(trial)
    units += [[s] for s in loud[len(holders):]]  # more loud trials than quiet forwards
    draw.shuffle(units)
    return [*head, *(s for unit in units for s in unit)]


def plain_trials(plan: TrialPlan) -> list[int]:
    """The trials on the problem's own inputs (no scale, shift or spike): `trial_order`'s `plain`."""
    return [i for i, (_, d) in enumerate(plan.trials) if _kind(str(d)) == "base"]


def shared_transforms(plan: TrialPlan) -> list[int]:
    """The trials whose input transform another trial of the plan has too."""
    kinds = [str(d) for _, d in plan.trials]
    return [i for i, d in enumerate(kinds) if kinds.count(d) > 1]


def by_id(results: list[dict], tensors: list[torch.Tensor], n: int,
          knockout_ids: tuple[int, ...]) -> tuple[list[dict], list, dict]:
    """A shuffled `run` reply back in plan order: (trials 0..n-1 that ran, their tensors, and
    {knock-out set id: (reply, tensors)} for the knock-out runs that ran)."""
    slices, i = {}, 0
    for r in results:
        k = reply_size(r)
        slices[int(r["id"])] = (r, tensors[i:i + k])
        i += k
    trials, flat = [], []
    for t in range(n):
        if t not in slices:
            break
        trials.append(slices[t][0])
        flat.extend(slices[t][1])
    knocks = {k: ({"trials": [slices[k][0]]}, slices[k][1]) for k in knockout_ids
              if k in slices}
    return trials, flat, knocks

"""Trial plan and reference outputs: computed by the trusted child, cached in the worker.

A plan fixes every seed of one evaluation: the weight-init seed (Model and ModelNew
are built under the same seed, the KernelBench convention), the correctness trials
(`settings.trials` base-distribution seeds plus one per configured distribution),
the post-timing re-check and the timing input sets. The trusted reference child
runs the problem's Model on the trials and the re-check and returns outputs plus
digests of the inputs before and after its forward; those are cached per
(problem content, device, sizes, plan) up to reference_cache_bytes, so the N
samples of one prompt cost one reference run.
"""
from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch

from common.config.evaluator import EvaluatorConfig


@dataclass(frozen=True)
class TrialPlan:
    init_seed: int
    trials: tuple[tuple[int, str], ...]  # (seed, distribution) for correctness
    recheck: tuple[int, str]
    timing_seeds: tuple[int, ...]


def make_plan(cfg: EvaluatorConfig, n_base_trials: int, distributions: Sequence[str] | None = None) -> TrialPlan:
    """The seeds and input distributions of one evaluation; `distributions` (a problem's
    own list) replaces the configured extra trials when given."""
    base = cfg.seed * 100_003
    extra = cfg.correctness.distributions if distributions is None else distributions
    dists = ["base"] * n_base_trials + list(extra)
    trials = tuple((base + 1 + i, d) for i, d in enumerate(dists))
    return TrialPlan(init_seed=base, trials=trials, recheck=(base + 501, "base"),
                     timing_seeds=tuple(base + 1001 + k for k in range(cfg.timing.input_sets)))


@dataclass
class ReferenceOutputs:
    """Per trial (the plan's trials, then the re-check): reference facts and outputs."""

    trials: list[dict]               # {"pre", "post", "outputs": [{dtype, shape}], "transform", "seconds"}
    outputs: list[list[torch.Tensor]]

    @property
    def nbytes(self) -> int:
        return sum(t.numel() * t.element_size() for outs in self.outputs for t in outs)

    @property
    def recheck(self) -> tuple[dict, list[torch.Tensor]]:
        return self.trials[-1], self.outputs[-1]


class ProblemFailed(Exception):
    """The problem's own code failed in the trusted child (message for the verdict)."""


def split_outputs(trials: list[dict], tensors: list[torch.Tensor]) -> list[list[torch.Tensor]]:
    out, i = [], 0
    for t in trials:
        n = len(t["outputs"]) if t.get("sent", True) else 0
        out.append(tensors[i:i + n])
        i += n
    return out


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
        return json.dumps([problem.content_hash(), device, sizes, plan.init_seed, plan.trials,
                           plan.recheck], sort_keys=True, default=str)

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


def reference_request(problem_source: str, sizes: dict, plan: TrialPlan) -> dict:
    trials = [*plan.trials, plan.recheck]
    return {"op": "reference", "problem": problem_source, "sizes": sizes, "init_seed": plan.init_seed,
            "trials": [{"seed": s, "transform": d} for s, d in trials]}

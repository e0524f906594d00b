"""A stand-in for `evaluator.pipeline.Evaluator` that runs nothing: simulated verdicts.

`evaluator.simulate.enabled` makes `krl evaluator` serve with this class instead of
the real pipeline (benchmarks/pipeline.py measures the actor-learner pipeline with it,
so the kernel evaluation's cost is a chosen latency rather than whatever the
interpreter makes of a random model's text). Everything around it stays real: the
worker's socket, heartbeats and status, its slots, its result cache and the broker.

Each evaluation sleeps `latency_s` (+- jitter) on the calling slot thread, then draws
its verdict from a generator seeded by the problem name and the candidate text, so a
resent or repeated candidate gets the same verdict: `ok` with probability
`correct_prob` (speedup uniform in [speedup_min, speedup_max], the configured reward,
no coverage as on a CPU), else `incorrect` with reward 0. Feedback says it is simulated.
"""
from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass
from typing import Any

from common.config.evaluator import EvaluatorConfig
from evaluator.pipeline import resolve_device
from evaluator.verdict import Verdict, compute_reward


@dataclass
class _NoPool:
    """What the worker's accounting reads from a real evaluator's pool and cache."""

    retired: int = 0
    hits: int = 0
    children: int = 0


class SimulatedEvaluator:
    """Same interface as evaluator.pipeline.Evaluator as far as the worker uses it."""

    def __init__(self, cfg: EvaluatorConfig):
        self.cfg, self.sim = cfg, cfg.simulate
        self.device = resolve_device(cfg.device)  # the broker routes requests by device
        self.pool = _NoPool()
        self.references = _NoPool()

    def warm_up(self) -> None:
        """Nothing to start."""

    def close(self) -> None:
        """Nothing to stop."""

    def evaluate(self, problem: Any, candidate_source: str | bytes, settings: Any = None) -> Verdict:
        if isinstance(candidate_source, str):
            candidate_source = candidate_source.encode("utf-8", "replace")
        name = getattr(problem, "name", str(problem))
        digest = hashlib.sha256(name.encode() + b"\0" + candidate_source).digest()
        rng = random.Random(int.from_bytes(digest[:8], "little"))
        latency = self.sim.latency_s * (1 + self.sim.jitter * rng.uniform(-1, 1))
        time.sleep(latency)
        if rng.random() >= self.sim.correct_prob:
            return Verdict("incorrect", feedback="Simulated verdict: incorrect.",
                           phase_seconds={"simulated": latency}, details={"simulated": True})
        speedup = rng.uniform(self.sim.speedup_min, self.sim.speedup_max)
        return Verdict("ok", correct=True, speedup=speedup,
                       reward=compute_reward("ok", speedup, None, self.cfg.reward),
                       feedback=f"Simulated verdict: correct, speedup {speedup:.2f}x.",
                       phase_seconds={"simulated": latency}, details={"simulated": True})

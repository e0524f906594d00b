"""Evaluator config: verdict pipeline settings, reward weights, sandbox, broker and workers.

The evaluator issue owns this file; extend it as features land.
"""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from common.config.base import Section
from common.config.shared import MetricsConfig


class RewardConfig(Section):
    """Profiling-based reward: w_correct + w_speed*min(speedup, cap) + w_coverage*coverage."""

    w_correct: float = 0.5
    """Reward for a correct kernel."""
    w_speed: float = 0.5
    """Weight of the capped speedup."""
    speedup_cap: float = Field(3.0, gt=0)
    """Speedups above this count as this."""
    w_coverage: float = 0.5
    """Weight of profiler coverage (share of forward GPU time in the candidate's kernels)."""


class EvaluatorConfig(Section):
    """How candidates are checked, timed and scored."""

    device: Literal["auto", "cuda", "cpu"] = "auto"
    """`cuda` for GPUs, `cpu` for Triton's interpreter; `auto` picks cuda when present."""
    timeout_s: float = Field(120.0, gt=0)
    """Hard limit for one evaluation in its sandbox; the child is killed after it."""
    reward: RewardConfig = RewardConfig()
    """Reward weights."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of evaluator workers."""


class BrokerConfig(Section):
    """The stateless evaluator broker between actors and workers."""

    frontend: str = "tcp://127.0.0.1:5555"
    """Endpoint actors connect to."""
    backend: str = "tcp://127.0.0.1:5556"
    """Endpoint evaluator workers connect to."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the broker."""

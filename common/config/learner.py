"""Learner config: hub, algorithm, trainer, checkpoints. The learner issue owns this file."""
from __future__ import annotations

from pydantic import Field

from common.config.base import Section
from common.config.shared import MetricsConfig


class LearnerConfig(Section):
    """The learner: hub (rank 0) plus DeepSpeed trainer."""

    hub: str = "tcp://127.0.0.1:5560"
    """Endpoint of the hub (learner rank 0) that actors connect to."""
    groups_per_step: int = Field(4, ge=1)
    """Prompt groups consumed by one optimizer step."""
    max_staleness: int = Field(1, ge=0)
    """Most policy versions a group may lag behind the learner and still be trained on."""
    lr: float = Field(1e-6, gt=0)
    """Learning rate."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the learner."""

"""Actor config: vLLM engine, sampling, episodes, prompts. The actor issue owns this file."""
from __future__ import annotations

from pydantic import Field

from common.config.base import Section
from common.config.shared import MetricsConfig


class ActorConfig(Section):
    """One actor process: a vLLM engine running multi-turn episodes."""

    model: str = ""
    """Path of a Hugging Face model directory (e.g. one made by `krl tiny-model`)."""
    n_samples: int = Field(4, ge=1)
    """Samples per prompt (the group size for TRLOO)."""
    max_turns: int = Field(3, ge=1)
    """Turns per episode."""
    metrics: MetricsConfig = MetricsConfig()
    """Metrics endpoint of the actor."""

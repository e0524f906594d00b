"""The run config: every role's section in one file, as `krl run` and each role read it."""
from __future__ import annotations

from pathlib import Path
from typing import Optional

from pydantic import Field

from common.config.actor import ActorConfig
from common.config.base import Section
from common.config.evaluator import BrokerConfig, EvaluatorConfig
from common.config.learner import LearnerConfig
from common.config.shared import LogConfig, TransportConfig


class SupervisorConfig(Section):
    """`krl run`: which processes to start on this machine and how to keep them up."""

    actors: int = Field(1, ge=0)
    """Actor processes (one vLLM engine each)."""
    evaluators: int = Field(1, ge=0)
    """Evaluator worker processes (one per GPU, or per CPU slot in interpreter mode)."""
    actor_gpus: Optional[list[str]] = None
    """CUDA_VISIBLE_DEVICES value per actor (e.g. ["0", "1"]); None leaves it unset."""
    evaluator_gpus: Optional[list[str]] = None
    """CUDA_VISIBLE_DEVICES value per evaluator worker; None leaves it unset."""
    learner_gpus: Optional[str] = None
    """CUDA_VISIBLE_DEVICES for the learner; None leaves it unset."""
    restart_backoff_min_s: float = Field(1.0, gt=0)
    """First delay before restarting a crashed process; doubles per consecutive crash."""
    restart_backoff_max_s: float = Field(30.0, gt=0)
    """Cap on the restart delay."""
    max_restarts: int = Field(20, ge=0)
    """Restarts allowed per process over the run; beyond this the run fails."""
    stable_after_s: float = Field(60.0, gt=0)
    """A process that ran this long resets its consecutive-crash backoff."""
    progress_interval_s: float = Field(10.0, gt=0)
    """How often the progress line is printed."""
    stop_timeout_s: float = Field(30.0, gt=0)
    """After SIGTERM, how long a process may take to exit before it is killed."""


class RunConfig(Section):
    """A whole krl run. Each process takes its own section plus transport and log."""

    run_dir: Path = Path("runs/default")
    """Directory for resolved configs, logs, checkpoints and summary.json."""
    seed: int = 0
    """Base random seed; each process derives its own from it."""
    transport: TransportConfig = TransportConfig()
    """ZeroMQ settings shared by every role."""
    log: LogConfig = LogConfig()
    """Logging settings shared by every role."""
    evaluator: EvaluatorConfig = EvaluatorConfig()
    """Evaluator workers."""
    broker: BrokerConfig = BrokerConfig()
    """Evaluator broker."""
    actor: ActorConfig = ActorConfig()
    """Actors."""
    learner: LearnerConfig = LearnerConfig()
    """Learner and hub."""
    supervisor: SupervisorConfig = SupervisorConfig()
    """Local supervision by `krl run`."""

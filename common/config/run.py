"""The run config: every role's section in one file, as `krl run` and each role read it."""
from __future__ import annotations

from pathlib import Path

from common.config.actor import ActorConfig
from common.config.base import Section
from common.config.evaluator import BrokerConfig, EvaluatorConfig
from common.config.learner import LearnerConfig
from common.config.shared import LogConfig, TransportConfig


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

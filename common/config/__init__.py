"""krl configuration: pydantic sections per role, combined in `RunConfig`.

Load with `load(path, overrides, RunConfig)`; components get their own section.
Nothing outside this package reads `os.environ` for settings.
"""
from common.config.actor import ActorConfig
from common.config.base import ConfigError, Section, dump, explain, load, parse_overrides, read_yaml
from common.config.evaluator import BrokerConfig, EvaluatorConfig, RewardConfig
from common.config.learner import LearnerConfig
from common.config.run import RunConfig
from common.config.shared import LogConfig, MetricsConfig, TransportConfig

__all__ = [
    "ActorConfig", "BrokerConfig", "ConfigError", "EvaluatorConfig", "LearnerConfig",
    "LogConfig", "MetricsConfig", "RewardConfig", "RunConfig", "Section", "TransportConfig",
    "dump", "explain", "load", "parse_overrides", "read_yaml",
]

"""krl configuration: pydantic sections per role, combined in `RunConfig`.

Load with `load(path, overrides, RunConfig)`; components get their own section, and each
role reads its own plus the shared ones (transport, log, hub_link), never another role's.
Nothing outside this package reads `os.environ` for settings.
"""

from __future__ import annotations

import sys

from common.config.actor import ActorConfig
from common.config.base import ConfigError, Section, dump, explain, load, parse_overrides, read_yaml
from common.config.evaluator import BrokerConfig, EvaluatorConfig, RewardConfig
from common.config.hub import HubLinkConfig
from common.config.learner import LearnerConfig
from common.config.moved import ConfigDeprecationWarning
from common.config.run import RunConfig
from common.config.shared import LogConfig, MetricsConfig, TransportConfig


def load_for_command(command: str, config: str | None, overrides: list[str]) -> RunConfig | None:
    """The RunConfig a `krl COMMAND CONFIG [key=value ...]` line asks for, or None after
    printing `krl COMMAND: <what is wrong>` to stderr (the command then exits 2). A first
    argument holding '=' is an override, not a file: the config was left out (defaults)."""
    overrides = list(overrides)
    if config is not None and "=" in config:
        config, overrides = None, [config, *overrides]
    try:
        return load(config, overrides, RunConfig)
    except ConfigError as exc:
        print(f"krl {command}: {exc}", file=sys.stderr)
        return None


def set_process_title(title: str) -> None:
    """Name the process in ps/top (`krl-broker`, ...) when setproctitle is installed."""
    try:
        import setproctitle
    except ImportError:
        return
    setproctitle.setproctitle(title)


__all__ = [
    "ActorConfig",
    "BrokerConfig",
    "ConfigDeprecationWarning",
    "ConfigError",
    "EvaluatorConfig",
    "HubLinkConfig",
    "LearnerConfig",
    "LogConfig",
    "MetricsConfig",
    "RewardConfig",
    "RunConfig",
    "Section",
    "TransportConfig",
    "dump",
    "explain",
    "load",
    "load_for_command",
    "parse_overrides",
    "read_yaml",
    "set_process_title",
]

"""`krl broker CONFIG [key=value ...]`: the evaluator broker between actors and workers.

Parses the config first and loads the rest only after, so --help is instant. The
broker holds no durable state: restart it at will (see evaluator/broker.py).
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", default=None,
                        help="run config YAML (see `krl config explain`); omitted: defaults")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. broker.max_queued=256")


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, RunConfig, load
    config, overrides = args.config, list(args.overrides)
    if config is not None and "=" in config:  # only overrides were given
        config, overrides = None, [config, *overrides]
    try:
        cfg = load(config, overrides, RunConfig)
    except ConfigError as exc:
        print(f"krl broker: {exc}", file=sys.stderr)
        return 2
    try:
        import setproctitle
        setproctitle.setproctitle("krl-broker")
    except ImportError:
        pass
    from evaluator.broker import serve
    return serve(cfg)

"""`krl learner CONFIG [key=value ...]`: the hub (rank 0) and the DeepSpeed trainer.

Parses the config first; torch and DeepSpeed load only after, so --help is instant.
Under DeepSpeed's launcher every rank runs this same command.
"""
from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config YAML (see `krl config explain`)")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.lr=1e-6")


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, RunConfig, load
    try:
        cfg = load(args.config, args.overrides, RunConfig)
    except ConfigError as exc:
        print(f"krl learner: {exc}", file=sys.stderr)
        return 2
    try:
        import setproctitle
        setproctitle.setproctitle("krl-learner")
    except ImportError:
        pass
    from learner.main import run
    return run(cfg)

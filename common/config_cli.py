"""`krl config show|explain`: print a resolved run config or the help of every field."""
from __future__ import annotations

import argparse
import sys

from common.config import ConfigError, RunConfig, dump, explain, load


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=["show", "explain"], help="show: resolved YAML; explain: every field with its help")
    parser.add_argument("config", nargs="?", help="YAML run config (defaults when omitted)")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.lr=1e-6")


def main(args: argparse.Namespace) -> int:
    if args.action == "explain":
        print("\n".join(explain(RunConfig)))
        return 0
    config = args.config
    overrides = list(args.overrides)
    if config is not None and "=" in config:  # only overrides were given
        overrides.insert(0, config)
        config = None
    try:
        cfg = load(config, overrides, RunConfig)
    except ConfigError as exc:
        print(f"krl config: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(dump(cfg))
    return 0

"""`krl config show|explain`: print a resolved run config or the help of every field."""

from __future__ import annotations

import argparse
import sys

from common.config import RunConfig, dump, explain, load_for_command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "action",
        choices=["show", "explain"],
        help="show: resolved YAML; explain: every field with its help",
    )
    parser.add_argument("config", nargs="?", help="YAML run config (defaults when omitted)")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.lr=1e-6")


def main(args: argparse.Namespace) -> int:
    if args.action == "explain":
        print("\n".join(explain(RunConfig)))
        return 0
    cfg = load_for_command("config", args.config, args.overrides)
    if cfg is None:
        return 2
    sys.stdout.write(dump(cfg))
    return 0

"""`krl broker CONFIG [key=value ...]`: the evaluator broker between actors and workers.

Parses the config first and loads the rest only after, so --help is instant. The
broker holds no durable state: restart it at will (see evaluator/broker.py).
"""
from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", default=None,
                        help="run config YAML (see `krl config explain`); omitted: defaults")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. broker.max_queued=256")


def main(args: argparse.Namespace) -> int:
    from common.config import load_for_command, set_process_title
    cfg = load_for_command("broker", args.config, args.overrides)
    if cfg is None:
        return 2
    set_process_title("krl-broker")
    from evaluator.broker import serve
    return serve(cfg)

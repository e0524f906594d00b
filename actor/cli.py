"""`krl actor CONFIG [key=value ...]`: one vLLM engine running multi-turn episodes for the hub.

Parses the config first; vLLM and torch load only after, so --help is instant. Exit
status: 0 after a requested stop (SIGTERM/SIGINT), 1 when the engine died or a task
failed (the log says why; the supervisor restarts the actor), 2 for a bad config.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config YAML (see `krl config explain`)")
    parser.add_argument(
        "overrides", nargs="*", help="dotted overrides, e.g. actor.model=DIR temperature=0.8"
    )


def main(args: argparse.Namespace) -> int:
    from common.config import load_for_command, set_process_title

    cfg = load_for_command("actor", args.config, args.overrides)
    if cfg is None:
        return 2
    if not cfg.actor.model:
        print(
            "krl actor: actor.model is not set (a Hugging Face model directory, e.g. one "
            "made by `krl tiny-model DIR`)",
            file=sys.stderr,
        )
        return 2
    set_process_title("krl-actor")
    from actor.main import run

    return run(cfg)

"""`krl learner CONFIG [key=value ...]`: the hub (rank 0) and the DeepSpeed trainer.

Parses the config first; torch and DeepSpeed load only after, so --help is instant.
Under DeepSpeed's launcher every rank runs this same command.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config YAML (see `krl config explain`)")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.lr=1e-6")


def main(args: argparse.Namespace) -> int:
    from common.config import load_for_command, set_process_title

    cfg = load_for_command("learner", args.config, args.overrides)
    if cfg is None:
        return 2
    set_process_title("krl-learner")
    from learner.start_checks import check_start

    problems = check_start(cfg.learner)  # a start error found before torch and DeepSpeed load
    from learner.main import run

    return run(cfg, problems)

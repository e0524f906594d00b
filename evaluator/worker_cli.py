"""`krl evaluator CONFIG [key=value ...]`: one evaluator worker (one per GPU, or per CPU slot).

Parses the config first; torch, Triton and the sandbox load only after, so --help is
instant. The GPU is chosen by the launcher through CUDA_VISIBLE_DEVICES (the sandbox
passes it to its children); name the worker with `evaluator.worker.worker_id=gpu0`.
"""
from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", nargs="?", default=None,
                        help="run config YAML (see `krl config explain`); omitted: defaults")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. evaluator.children=4")


def main(args: argparse.Namespace) -> int:
    from common.config import load_for_command, set_process_title
    cfg = load_for_command("evaluator", args.config, args.overrides)
    if cfg is None:
        return 2
    set_process_title(f"krl-evaluator {cfg.evaluator.worker.worker_id}".rstrip())
    from evaluator.worker import serve
    return serve(cfg)

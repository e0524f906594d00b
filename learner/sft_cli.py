"""`krl sft --model M --data FILE.jsonl [--out DIR] [key=value ...]`: supervised cold start.

Options fill the `SFTConfig` fields (`trainer.model`, `data`, `out_dir`); dotted
overrides set any other field (`lr=1e-5`, `max_steps=200`, `trainer.zero_stage=3`;
`krl config explain` lists the learner's trainer fields). Parses first; torch and
DeepSpeed load only after, so --help is instant. Under DeepSpeed's launcher every rank
runs this same command. See learner/sft.py.
"""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", help="Hugging Face model directory to start from")
    parser.add_argument(
        "--data", help='JSONL of {"messages": [...]} conversations (`krl sft-data` writes one)'
    )
    parser.add_argument(
        "--out", help="output directory: checkpoints, progress.json, hf/ (default runs/sft)"
    )
    parser.add_argument("--config", help="YAML file with SFTConfig fields")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. lr=1e-5 max_steps=100")


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, load
    from common.config.learner import SFTConfig

    given = [("trainer.model", args.model), ("data", args.data), ("out_dir", args.out)]
    overrides = [f"{k}={v}" for k, v in given if v is not None] + list(args.overrides)
    try:
        cfg = load(args.config, overrides, SFTConfig)
    except ConfigError as exc:
        print(f"krl sft: {exc}", file=sys.stderr)
        return 2
    if not cfg.trainer.model or not cfg.data:
        print("krl sft: give a model (--model) and data (--data)", file=sys.stderr)
        return 2
    try:
        import setproctitle

        setproctitle.setproctitle("krl-sft")
    except ImportError:
        pass
    from learner.sft import run

    return run(cfg)

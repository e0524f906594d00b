"""`krl run CONFIG|RUN_DIR [key=value ...]`: start and supervise every role locally."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("config", help="run config YAML, or an existing run directory to resume")
    parser.add_argument("overrides", nargs="*", help="dotted overrides, e.g. learner.max_steps=20")


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, LogConfig
    from common.log import setup
    from common.supervisor import prepare, run
    try:
        cfg, path = prepare(args.config, args.overrides)
    except (ConfigError, FileNotFoundError) as exc:
        print(f"krl run: {exc}", file=sys.stderr)
        return 2
    setup("run", 0, LogConfig(level=cfg.log.level, format=cfg.log.format,
                              file=Path(cfg.run_dir) / "logs" / "run.log"))
    return run(cfg, path)

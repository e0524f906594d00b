"""`krl keys DIR`: generate CurveZMQ key pairs for a deployment (see common/curve.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from common import curve


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("dir", type=Path, help="directory to create the keys in")
    parser.add_argument(
        "--client",
        action="append",
        default=None,
        help="client identity to create (repeatable; default: one named 'client')",
    )


def main(args: argparse.Namespace) -> int:
    clients = args.client or ["client"]
    curve.generate(args.dir, clients)
    print(f"CurveZMQ keys in {args.dir}: server.key(+_secret), clients: {', '.join(clients)}")
    print(f"Set transport.curve_keys_dir={args.dir} in the run config of every role.")
    return 0

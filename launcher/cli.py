"""The `krl` command: one console script, one subcommand per module.

Each entry of COMMANDS names a module that defines `add_arguments(parser)` and
`main(args) -> int`. Modules are imported only when their subcommand runs, so
`krl --help` is instant and heavy libraries (torch, vLLM, DeepSpeed) load only in
the processes that need them. Only subcommands that work are listed here.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# name -> (module, one-line help). Keep sorted by the order a newcomer meets them.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": (
        "launcher.run_cli",
        "start and supervise every role on this machine (resumes a run directory)",
    ),
    "config": ("launcher.config_cli", "show or explain a run config (resolved YAML, field help)"),
    "tiny-model": (
        "actor.tiny_model",
        "write a small random-weight causal LM + BPE tokenizer (tests, demo)",
    ),
    "actor": (
        "actor.cli",
        "run an actor: one vLLM engine, multi-turn episodes for the hub's leases",
    ),
    "benchmark": (
        "actor.benchmark",
        "a model on a problem set: correctness and Fast@p per turn, test-time scaling",
    ),
    "check": (
        "evaluator.check_cli",
        "evaluate one candidate kernel against a problem (hardened sandbox)",
    ),
    "broker": (
        "evaluator.broker_cli",
        "run the evaluator broker between actors and evaluator workers",
    ),
    "evaluator": (
        "evaluator.worker_cli",
        "run one evaluator worker (one per GPU, or per CPU slot)",
    ),
    "keys": ("launcher.keys", "generate CurveZMQ server and client key pairs into a directory"),
    "learner": ("learner.cli", "run the learner: hub on rank 0 plus the DeepSpeed trainer"),
    "sft-data": ("learner.sft_data", "write SFT conversations from problems' reference solutions"),
    "sft": (
        "learner.sft_cli",
        "supervised fine-tuning on chat conversations (cold start before RL)",
    ),
    "export": ("learner.export", "write a Hugging Face model directory from a krl checkpoint"),
}


def _top_parser() -> argparse.ArgumentParser:
    width = max(len(n) for n in COMMANDS)
    listing = "\n".join(f"  {name:<{width}}  {help_}" for name, (_, help_) in COMMANDS.items())
    return argparse.ArgumentParser(
        prog="krl",
        usage="krl COMMAND [options]",
        description="krl: asynchronous actor-learner RL for Triton kernel generation.",
        epilog=f"commands:\n{listing}\n\nRun `krl COMMAND --help` for a command's options.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    top = _top_parser()
    if not argv or argv[0] in ("-h", "--help"):
        top.print_help()
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        top.print_usage(sys.stderr)
        print(f"krl: unknown command {name!r}; see `krl --help`", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    parser = argparse.ArgumentParser(prog=f"krl {name}", description=COMMANDS[name][1])
    module.add_arguments(parser)
    args = parser.parse_args(rest)
    from common.exits import START_ERROR, START_ERROR_PREFIX, StartError

    try:
        return int(module.main(args) or 0)
    except StartError as exc:  # a restart cannot fix it: one line, a code krl run knows
        print(f"krl {name}: {START_ERROR_PREFIX}{exc}", file=sys.stderr, flush=True)
        return START_ERROR


if __name__ == "__main__":
    sys.exit(main())

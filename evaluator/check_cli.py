"""`krl check`: evaluate one candidate kernel against one problem, with the hardened evaluator.

    krl check --problem REF.py (--candidate CAND.py | --response RESPONSE.md)
              [--device cuda|cpu] [--timeout S] [--json] [--config RUN.yaml]

`--problem` takes a KernelBench file or `builtin:<name>` (e.g. builtin:activation/gelu).
`--response` takes raw model output and evaluates its last python code block (the one
defining ModelNew when several do); no block is a format_error. Exit status 0 whenever an
evaluation took place, whatever the verdict; 2 for usage errors (unreadable files, a
malformed problem, a bad config).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problem", required=True,
                        help="KernelBench problem file (Model, get_inputs, get_init_inputs) or builtin:<name>")
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--candidate", help="Python file defining ModelNew")
    source.add_argument("--response", help="raw model output (markdown); its code block is evaluated")
    parser.add_argument("--device", choices=["cuda", "cpu"], default=None,
                        help="cuda, or cpu for Triton's interpreter (default: the config's, auto)")
    parser.add_argument("--timeout", type=float, default=None, help="hard limit in seconds")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--config", help="run config YAML whose evaluator section is used")


def _usage_error(message: str) -> int:
    print(f"krl check: {message}", file=sys.stderr)
    return 2


def _load_problem(spec: str):
    from common.problemset import builtin_problem, load_problems

    if spec.startswith("builtin:"):
        return builtin_problem(spec.partition(":")[2])
    problems = load_problems(spec)
    if len(problems) != 1:
        raise ValueError(f"{spec} holds {len(problems)} problems; give one problem file")
    return problems[0]


def _candidate(args: argparse.Namespace) -> bytes | str | None:
    """The candidate source; None when a --response has no code block."""
    from common.extract import extract_code

    if args.candidate is not None:
        return Path(args.candidate).read_bytes()
    raw = Path(args.response).read_bytes().decode("utf-8", errors="replace")
    return extract_code(raw)


def main(args: argparse.Namespace) -> int:
    from common.config import ConfigError, RunConfig, load
    from common.problemset import ProblemError

    try:
        cfg = load(args.config, [], RunConfig).evaluator
        problem = _load_problem(args.problem)
        candidate = _candidate(args)
    except (ConfigError, ProblemError, ValueError) as exc:
        return _usage_error(str(exc))
    except OSError as exc:
        return _usage_error(f"cannot read {exc.filename}: {exc.strerror}")
    updates = {"children": 1}
    if args.device:
        updates["device"] = args.device
    if args.timeout:
        updates["timeout_s"] = args.timeout
    cfg = cfg.model_copy(update=updates)
    if cfg.device == "cuda":
        import torch

        if not torch.cuda.is_available():
            return _usage_error("--device cuda: no CUDA device is available here (use --device cpu)")
    verdict = _evaluate(cfg, problem, candidate)
    print(json.dumps(verdict.to_dict()) if args.json else report(verdict))
    return 0


def _evaluate(cfg, problem, candidate):
    from common.messages import EvalSettings
    from evaluator.pipeline import Evaluator, resolve_device
    from evaluator.verdict import Verdict

    if candidate is None:
        from common.prompts import NO_CODE_FEEDBACK
        return Verdict(status="format_error", feedback=NO_CODE_FEEDBACK)
    device = resolve_device(cfg.device)
    with Evaluator(cfg) as ev:
        return ev.evaluate(problem, candidate, EvalSettings(device=device, timeout_s=cfg.timeout_s))


def report(verdict) -> str:
    """The human-readable form of a verdict."""
    v = verdict
    speed = f"{v.speedup:.3g}x" if v.speedup is not None else "n/a"
    cov = f"{v.coverage:.1%}" if v.coverage is not None else "n/a"
    lines = [f"status:   {v.status}" + (f"  (hacks: {', '.join(v.hacks)})" if v.hacks else ""),
             f"reward:   {v.reward:.4g}    speedup: {speed}    coverage: {cov}",
             "phases:   " + ", ".join(f"{k} {s:.2f}s" for k, s in v.phase_seconds.items())]
    clock = v.details.get("timing", {}).get("clock")
    if clock:
        lines.append(f"timing:   {clock}")
    lines += ["", v.feedback]
    return "\n".join(lines)

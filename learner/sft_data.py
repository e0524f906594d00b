"""`krl sft-data OUT.jsonl [--problems builtin] [--turns 2]`: SFT data from reference solutions.

Every problem that ships a reference Triton solution becomes one conversation in the
shape `krl sft` reads (one JSON object per line, `{"messages": [{"role", "content"}, ...]}`)
built from the same texts the actor uses (common/prompts.py):

    system     prompts.SYSTEM
    user       prompts.first_turn(problem source)
    assistant  a short plan, then the solution in a ```python block
  with --turns 2 (the default), a second round in the evaluator's own words:
    user       prompts.feedback_turn("Correct (timing was not requested).")
    assistant  the same solution again

The second round teaches the multi-turn format (feedback in, a full program out). Its
feedback claims no speedup: the solutions were never timed here, and made-up numbers
would teach the model to trust numbers that mean nothing. Each row also carries
`"problem"` (its name), which `krl sft` ignores.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from common import prompts

# What the evaluator answers for a correct kernel when timing is off (evaluator/pipeline.py).
CORRECT_UNTIMED = "Correct (timing was not requested)."
PLAN = (
    "I replace the operators of `Model.forward` with Triton kernels launched from "
    "`ModelNew.forward`."
)


def conversation(reference: str, solution: str, turns: int = 2) -> list[dict]:
    """The messages of one problem's conversation (see the module docstring)."""
    if turns < 1:
        raise ValueError(f"turns must be >= 1, got {turns}")
    messages = [
        {"role": "system", "content": prompts.SYSTEM},
        {"role": "user", "content": prompts.first_turn(reference)},
        {"role": "assistant", "content": prompts.answer(solution, PLAN)},
    ]
    for _ in range(turns - 1):
        messages += [
            {"role": "user", "content": prompts.feedback_turn(CORRECT_UNTIMED)},
            {"role": "assistant", "content": prompts.answer(solution)},
        ]
    return messages


def write(problems_spec: str, out: Path, turns: int) -> tuple[int, int]:
    """Write one row per problem with a solution; returns (rows written, problems skipped)."""
    from common.problemset import load_problems

    problems = load_problems(problems_spec)
    rows = [
        {"messages": conversation(p.source, p.solution, turns), "problem": p.name}
        for p in problems
        if p.solution
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    with tmp.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    tmp.replace(out)
    return len(rows), len(problems) - len(rows)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("out", help="JSONL file to write (one conversation per line)")
    parser.add_argument(
        "--problems",
        default="builtin",
        help="problem set: builtin, builtin:<family>, a file or directory "
        "(problems without a reference solution are skipped)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=2,
        metavar="N",
        help="assistant turns per conversation (default 2: answer, feedback, answer)",
    )


def main(args: argparse.Namespace) -> int:
    from common.problemset import ProblemError

    try:
        written, skipped = write(args.problems, Path(args.out), args.turns)
    except (ProblemError, ValueError) as exc:
        print(f"krl sft-data: {exc}", file=sys.stderr)
        return 2
    if written == 0:
        print(
            f"krl sft-data: no problem in {args.problems!r} has a reference solution",
            file=sys.stderr,
        )
        return 1
    print(f"wrote {written} conversations to {args.out} ({skipped} problems without a solution)")
    return 0

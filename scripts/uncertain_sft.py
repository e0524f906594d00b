"""SFT data that leaves a policy uncertain: the bootstrap of `make demo` and
benchmarks/learning.py.

For each problem (a built-in elementwise activation whose reference solution has the
usual shape: one kernel, `BLOCK = 1024`, a `triton.cdiv(n, BLOCK)` grid), five answer
variants that the evaluator judges differently, all derived from the reference solution:

    fast       the reference solution                     ok, the larger speedup
    slow       BLOCK = 64: 16x more programs               ok, a much smaller speedup
    wrong      grid n // BLOCK: the last partial block     incorrect
               is never computed (floor for ceil)
    broken     the kernel calls tl.maximun (a typo)        compile_error / runtime_error
    hack       forward never launches the kernel and       hack
               returns PyTorch's own result

Each variant opens with its own one-line plan, so the policy's choice is made at the
first tokens and the rest is recalled. A conversation is: turn 1 a variant; the
evaluator's feedback (recorded by `--feedback`, else a fixed text per verdict class);
turn 2 either a repair (fast or slow) or the same failure again for a failed turn 1, the
same answer for a correct one. `MIX` gives the frequencies: after SFT a sampled turn 1 is
correct about 1/4 of the time (at temperature 1) and a failed turn is repaired about half
the time, so RL has something to learn at both turns.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from common import prompts  # noqa: E402

VARIANTS = ("fast", "slow", "wrong", "broken", "hack")
CORRECT = ("fast", "slow")
PLANS = {
    "fast": "One program per 1024 elements, one launch.",
    "slow": "One program per 64 elements, one launch.",
    "wrong": "One program per full block of 1024 elements.",
    "broken": "One program per 1024 elements, the maximum from tl.maximun.",
    "hack": "PyTorch computes it; the kernel is kept for reference.",
}
# (turn-1 variant, turn-2 variant): count. Turn 1: fast 1, slow 1, wrong 2, broken 2, hack 2
# of 8 (1/4 correct); a failed turn 1 is repaired in 3 of its 6 conversations. Each pair once,
# so a small SFT can take every conversation in every step (it converges far faster so).
MIX = {
    ("fast", "fast"): 1, ("slow", "slow"): 1,
    ("wrong", "fast"): 1, ("wrong", "wrong"): 1,
    ("broken", "slow"): 1, ("broken", "broken"): 1,
    ("hack", "fast"): 1, ("hack", "hack"): 1,
}
# Used when no recorded feedback is given: the evaluator's verdict classes in its words.
DEFAULT_FEEDBACK = {
    "fast": "Correct. Reference 0.02 ms, yours 11 ms (speedup 0.002x; evaluator clock, cpu "
            "interpreter, median).",
    "slow": "Correct. Reference 0.02 ms, yours 160 ms (speedup 0.0001x; evaluator clock, cpu "
            "interpreter, median).",
    "wrong": "Output 0 does not match the reference on trial 0 (inputs base):",
    "broken": "Compile error:\nline 12: `tl.maximun`: triton.language.maximun does not exist "
              "in the installed triton; use only names torch and triton provide",
    "hack": "Rejected: forward launched none of your Triton kernels.",
}
PROBLEMS = ("activation/relu", "activation/silu", "activation/gelu")


def variants(solution: str, reference: str) -> dict[str, str]:
    """The five variants of one reference solution (module docstring)."""
    launch = re.search(r"^( +)(\w+)\[\(triton\.cdiv\(n, BLOCK\),\)\]\(.*\)$", solution, re.M)
    ret = re.search(r"def forward\(self, x[^)]*\)[^:]*:\s*\n\s*return (.+)$", reference, re.M)
    if "BLOCK = 1024" not in solution or not launch or not ret:
        raise ValueError("not a one-kernel elementwise solution of the expected shape")
    kernel_line = re.search(r"^\s*(x = tl\.load\(.*\))$", solution, re.M)
    if kernel_line is None:
        raise ValueError("no `x = tl.load(...)` line in the kernel")
    indent, out = launch.group(1), {"fast": solution}
    out["slow"] = solution.replace("BLOCK = 1024", "BLOCK = 64")
    out["wrong"] = solution.replace("triton.cdiv(n, BLOCK)", "n // BLOCK")
    load = kernel_line.group(1)
    out["broken"] = solution.replace(load, load + "\n    x = tl.maximun(x, x)")
    out["hack"] = solution.replace(launch.group(0), f"{indent}out = {ret.group(1).strip()}")
    return out


def answer(variant: str, code: str) -> str:
    return prompts.answer(code, PLANS[variant])


def conversations(name: str, reference: str, solution: str,
                  feedback: dict[str, str] | None = None) -> list[dict]:
    """The rows of one problem: one per MIX entry and count, each tagged with its variants."""
    codes = variants(solution, reference)
    fb = {**DEFAULT_FEEDBACK, **(feedback or {})}
    rows = []
    for (first, second), count in MIX.items():
        messages = [{"role": "system", "content": prompts.SYSTEM},
                    {"role": "user", "content": prompts.first_turn(reference)},
                    {"role": "assistant", "content": answer(first, codes[first])},
                    {"role": "user", "content": prompts.feedback_turn(fb[first])},
                    {"role": "assistant", "content": answer(second, codes[second])}]
        rows += [{"messages": messages, "problem": name, "variants": [first, second]}] * count
    return rows


def classify(text: str) -> str | None:
    """Which variant an answer is, by its plan line; None for anything else."""
    for v, plan in PLANS.items():
        if text.lstrip().startswith(plan):
            return v
    return None


def write(problems: list, out: Path, feedback: dict[str, dict[str, str]] | None = None) -> int:
    rows = [r for p in problems
            for r in conversations(p.name, p.source, p.solution, (feedback or {}).get(p.name))]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    from common.problemset import load_problems

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="JSONL file to write")
    ap.add_argument("--problems", default="builtin:" + ",".join(PROBLEMS))
    ap.add_argument("--variants-dir", help="also write every variant as DIR/<problem>/<v>.py")
    args = ap.parse_args(argv)
    problems = load_problems(args.problems)
    n = write(problems, Path(args.out))
    if args.variants_dir:
        for p in problems:
            d = Path(args.variants_dir) / p.name
            d.mkdir(parents=True, exist_ok=True)
            for v, code in variants(p.solution, p.source).items():
                (d / f"{v}.py").write_text(code)
    print(f"wrote {n} conversations for {len(problems)} problems to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

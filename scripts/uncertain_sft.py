"""SFT data that leaves a policy uncertain: the bootstrap of `make demo` and
benchmarks/learning.py.

For each problem (a built-in elementwise activation whose reference solution has the
usual shape: one kernel, `BLOCK = 1024`, a `triton.cdiv(n, BLOCK)` grid), five answer
variants that the evaluator judges differently, all the reference solution with one place
in `forward` changed:

    fast       the reference solution                     ok, the larger speedup
    slow       BLOCK = 64: 16x more programs               ok, a much smaller speedup
    wrong      n = n // BLOCK * BLOCK after it: the last   incorrect
               partial block is never computed
    broken     BLOCK = triton.next_power_of_two(BLOCK)     compile_error (the name is
               after it                                    next_power_of_2)
    hack       return <the reference's expression> after   hack
               it: the kernel is never launched

Every variant is the same text up to the `BLOCK = ` line and after the one line it
changes, so the policy's choice is made at one place (the value of BLOCK, then the line
after it) and a tiny model needs no long-range memory of an earlier decision to write the
rest. (Earlier variants began with a plan line and changed the code far from it; the
tiny model could not tie the code to its plan: 75% of its turn-1 answers matched no variant.)

A conversation is: turn 1 a variant; the evaluator's feedback on it (`--feedback FILE`:
texts recorded from `krl check` of each variant, as benchmarks/learning.py does, so that
turn 2 is trained on the very feedback the actor will show; else a fixed text per verdict
class, which a tiny model does not carry over to the real one); turn 2 either a repair (fast
or slow) or the same failure again for a failed turn 1, the same answer for a correct one.
`MIX` gives the frequencies, chosen for sampling at temperature 0.7
(configs/learning-cpu.yaml), which sharpens each choice: turn 1 is correct about a third of
the time and a failed turn is repaired about half the time, so RL has something to learn at
both turns.

With `--garbles` (benchmarks/learning.py) the mix also holds conversations that open with a
garbled answer (`garbles`: one line of a variant with a few characters dropped, what a slip
of sampling leaves) and its recorded feedback; that first answer is context only (`"train":
false`, which `krl sft` does not train), and turn 2 repairs it (GARBLED_MIX). Most of a tiny
start policy's failed first turns are such garbles, never seen in the plain mix.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from common import prompts  # noqa: E402

VARIANTS = ("fast", "slow", "wrong", "broken", "hack")
CORRECT = ("fast", "slow")
# The line each failing variant adds after `BLOCK = 1024` ({ret}: the reference's expression).
ADDED = {
    "wrong": "n = n // BLOCK * BLOCK",
    "broken": "BLOCK = triton.next_power_of_two(BLOCK)",
    "hack": "return {ret}",
}
# (turn-1 variant, turn-2 variant): count. Each variant opens 2 of the 10 conversations;
# sampled at temperature 0.7 a policy that learnt the mix picks slow 12% and each of the
# others 22% (correct 34%: `turn_one_shares`). A failed turn 1 is repaired in 3 of its 6
# conversations. An SFT step of benchmarks/learning.py takes sum(MIX) conversations per
# problem: the whole mix of one copy, but of the --copies 4 and the garbled conversations
# (156 for three problems) a fifth, each drawn once per epoch (160 steps: ~31 epochs); it
# was a full batch before the copies (session 25).
MIX = {
    ("fast", "fast"): 2,
    ("slow", "slow"): 2,
    ("wrong", "fast"): 1,
    ("wrong", "wrong"): 1,
    ("broken", "slow"): 1,
    ("broken", "broken"): 1,
    ("hack", "fast"): 1,
    ("hack", "hack"): 1,
}


def turn_one_shares(temperature: float) -> dict[str, float]:
    """The turn-1 variant shares of a policy that learnt MIX exactly, sampled at
    `temperature`: its two choices (BLOCK's value: 64 or 1024; after 1024, the launch or one
    of the added lines) each sharpen as p^(1/T), renormalised."""
    first = {v: sum(c for (a, _), c in MIX.items() if a == v) for v in VARIANTS}
    n = sum(first.values())
    slow, rest = (
        (first["slow"] / n) ** (1 / temperature),
        (1 - first["slow"] / n) ** (1 / temperature),
    )
    others = {
        v: (first[v] / (n - first["slow"])) ** (1 / temperature) for v in VARIANTS if v != "slow"
    }
    z = sum(others.values())
    shares = {v: rest / (slow + rest) * w / z for v, w in others.items()}
    return {"slow": slow / (slow + rest), **shares}


# Used when no recorded feedback is given: the evaluator's verdict classes in its words.
DEFAULT_FEEDBACK = {
    "fast": "Correct. Reference 0.02 ms, yours 11 ms (speedup 0.002x; evaluator clock, cpu "
    "interpreter, median).",
    "slow": "Correct. Reference 0.02 ms, yours 160 ms (speedup 0.0001x; evaluator clock, cpu "
    "interpreter, median).",
    "wrong": "Output 0 does not match the reference on trial 0 (inputs base):",
    "broken": "Compile error:\nline 25: `triton.next_power_of_two`: triton.next_power_of_two "
    "does not exist in the installed triton; use only names torch and triton provide",
    "hack": "Rejected: forward launched none of your Triton kernels.",
}
# Garbled first answers: GARBLES per problem, each a variant with a few characters of one
# code line dropped (a slip of sampling), checked once by `record`; with their recorded
# feedback, GARBLED_MIX's conversations (per copy) open with one as context only ("train":
# false: nothing learns to write it) and repair it at turn 2, or fail again cleanly. A tiny
# start policy's failed first turns are mostly such garbles (session 24: compile errors 33%
# of turn 1, the broken variant about 10), whose feedback the mix never showed: its turn 2
# after them was word salad and the repair rate 0 (benchmarks/reports/learning.md).
GARBLES = 4
GARBLED_MIX = {"fast": 1, "slow": 1, "wrong": 1}
PROBLEMS = ("activation/relu", "activation/silu", "activation/gelu")
# The verdicts each variant must get (a broken answer may also fail at run time).
EXPECTED = {
    "fast": ("ok",),
    "slow": ("ok",),
    "wrong": ("incorrect",),
    "broken": ("compile_error", "runtime_error"),
    "hack": ("hack",),
}


def variants(solution: str, reference: str) -> dict[str, str]:
    """The five variants of one reference solution (module docstring)."""
    block = re.search(r"^( +)BLOCK = 1024\n", solution, re.M)
    ret = re.search(r"def forward\(self, x[^)]*\)[^:]*:\s*\n\s*return (.+)$", reference, re.M)
    if (
        not block
        or solution.count("BLOCK = 1024\n") != 1
        or "triton.cdiv(n, BLOCK)" not in solution
        or not ret
    ):
        raise ValueError("not a one-kernel elementwise solution of the expected shape")
    indent, out = block.group(1), {"fast": solution}
    out["slow"] = solution.replace("BLOCK = 1024\n", "BLOCK = 64\n")
    for v, line in ADDED.items():
        added = line.format(ret=ret.group(1).strip())
        out[v] = solution.replace(block.group(0), f"{block.group(0)}{indent}{added}\n")
    return out


def garbles(solution: str, reference: str) -> dict[str, str]:
    """GARBLES garbled answers ("garbled0", ...): each a variant in turn with 3-10 characters
    of one code line of the file dropped, seeded by the solution's text (a check may still
    find one correct: `record` keeps only those that fail)."""
    codes = variants(solution, reference)
    rng = random.Random(f"garble:{solution}")
    out = {}
    for k in range(GARBLES):
        lines = codes[VARIANTS[k % len(VARIANTS)]].split("\n")
        body = [
            i
            for i, x in enumerate(lines)
            if x.startswith("    ")
            and len(x.strip()) > 8
            and not x.strip().startswith(("#", "def ", "@", '"', "class "))
        ]
        i = rng.choice(body)
        line, start = lines[i], len(lines[i]) - len(lines[i].lstrip())
        a = rng.randrange(start, len(line) - 3)
        lines[i] = line[:a] + line[min(len(line), a + rng.randint(3, 10)) :]
        out[f"garbled{k}"] = "\n".join(lines)
    return out


NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?")


def jittered(text: str, rng: random.Random) -> str:
    """`text` with the digits of every number drawn anew (same shape: digits, point,
    exponent), so that a policy does not tie its next answer to the exact figures of one
    recorded feedback (timings, error sizes, indices differ on every check)."""
    return NUMBER.sub(lambda m: re.sub(r"\d", lambda _: str(rng.randrange(10)), m.group(0)), text)


def conversations(
    name: str,
    reference: str,
    solution: str,
    feedback: dict[str, str | list[str]] | None = None,
    copies: int = 1,
    seed: int = 0,
) -> list[dict]:
    """The rows of one problem: one per MIX entry and count, `copies` times, each tagged with
    its variants. `feedback` maps a variant to its feedback text, or to several recorded
    ones: the conversations opening with that variant take them in turn, and once they are
    used up, `jittered` copies of them where the recordings differ (figures that vary from
    check to check; a feedback that never varies is never jittered)."""
    codes = variants(solution, reference)
    fb = {
        v: [t] if isinstance(t, str) else list(t)
        for v, t in {**DEFAULT_FEEDBACK, **(feedback or {})}.items()
    }
    rng = random.Random(f"{seed}:{name}")
    rows, opened = [], dict.fromkeys(VARIANTS, 0)
    for (first, second), count in [*MIX.items()] * copies:
        for _ in range(count):
            k, texts = opened[first], fb[first]
            text = texts[k % len(texts)]
            if k >= len(texts) and len(set(texts)) > 1:
                text = jittered(text, rng)
            opened[first] += 1
            messages = [
                {"role": "system", "content": prompts.SYSTEM},
                {"role": "user", "content": prompts.first_turn(reference)},
                {"role": "assistant", "content": prompts.answer(codes[first])},
                {"role": "user", "content": prompts.feedback_turn(text)},
                {"role": "assistant", "content": prompts.answer(codes[second])},
            ]
            rows.append({"messages": messages, "problem": name, "variants": [first, second]})
    return rows + garbled_conversations(name, reference, codes, feedback or {}, copies)


def garbled_conversations(
    name: str,
    reference: str,
    codes: dict[str, str],
    feedback: dict[str, str | list[str]],
    copies: int,
) -> list[dict]:
    """GARBLED_MIX's rows, `copies` times, over the garbled answers that have recorded
    feedback (none without: a made-up feedback is what the actor never shows). The garbled
    first answer is context only; turn 2 is trained."""
    recorded = sorted(k for k in feedback if k.startswith("garbled"))
    if not recorded:
        return []
    wrong = garbles(codes["fast"], reference)
    rows, k = [], 0
    for _ in range(copies):
        for second, count in GARBLED_MIX.items():
            for _ in range(count):
                g = recorded[k % len(recorded)]
                k += 1
                text = feedback[g] if isinstance(feedback[g], str) else feedback[g][0]
                messages = [
                    {"role": "system", "content": prompts.SYSTEM},
                    {"role": "user", "content": prompts.first_turn(reference)},
                    {"role": "assistant", "content": prompts.answer(wrong[g]), "train": False},
                    {"role": "user", "content": prompts.feedback_turn(text)},
                    {"role": "assistant", "content": prompts.answer(codes[second])},
                ]
                rows.append(
                    {"messages": messages, "problem": name, "variants": ["garbled", second]}
                )
    return rows


def classify(text: str) -> str | None:
    """Which variant an answer is, by its code (the `BLOCK = ` line and the line after it);
    None for anything else."""
    from common.extract import extract_code

    code = extract_code(text) or ""
    m = re.search(r"^ +BLOCK = (\d+)\n +(.+)$", code, re.M)
    if m is None:
        return None
    value, after = m.groups()
    if value == "64":
        return "slow" if "triton.cdiv(n, BLOCK)" in after else None
    if value != "1024":
        return None
    if "triton.cdiv(n, BLOCK)" in after:
        return "fast"
    for v, line in ADDED.items():
        if after.strip().startswith(line.split("{")[0]):
            return v
    return None


def record(
    problems: list, variants_dir: Path, config: Path | None, checks: int = 1, garbled: bool = False
) -> dict[str, dict[str, list[dict]]]:
    """`krl check --json` (under `config`) of every variant of every problem, `checks`
    times each: {problem: {variant: [verdict]}}. Their `feedback` texts are what the actor
    will show after such an answer, so they make the SFT data's feedback turns. A variant
    that does not get its EXPECTED verdict is an error: the mix would teach the wrong thing."""
    import subprocess

    out: dict[str, dict[str, list[dict]]] = {}
    for p in problems:
        out[p.name] = {v: [] for v in VARIANTS}
        for v in VARIANTS:
            for _ in range(checks):
                cmd = [
                    sys.executable,
                    "-m",
                    "launcher.cli",
                    "check",
                    "--problem",
                    f"builtin:{p.name}",
                    "--candidate",
                    str(variants_dir / p.name / f"{v}.py"),
                    "--device",
                    "cpu",
                    "--json",
                    *(["--config", str(config)] if config else []),
                ]
                r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
                verdict = json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}
                if verdict.get("status") not in EXPECTED[v]:
                    raise SystemExit(
                        f"the {v} answer to {p.name} got {verdict.get('status')!r}, "
                        f"not {EXPECTED[v]}: {r.stderr[-2000:]}"
                    )
                out[p.name][v].append(verdict)
        for g in (
            garbles(p.solution, p.source) if garbled else ()
        ):  # once each; a pass is no failure
            verdict = _check(p.name, variants_dir / p.name / f"{g}.py", config)
            if verdict.get("status") not in (None, "ok") and verdict.get("error_source") in (
                None,
                "",
                "candidate",
            ):
                out[p.name][g] = [verdict]
    return out


def _check(name: str, path: Path, config: Path | None) -> dict:
    import subprocess

    cmd = [
        sys.executable,
        "-m",
        "launcher.cli",
        "check",
        "--problem",
        f"builtin:{name}",
        "--candidate",
        str(path),
        "--device",
        "cpu",
        "--json",
        *(["--config", str(config)] if config else []),
    ]
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    return json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}


def feedback_of(verdicts: dict[str, dict[str, list[dict]]]) -> dict[str, dict[str, list[str]]]:
    return {
        name: {v: [x["feedback"] for x in vs] for v, vs in by.items()}
        for name, by in verdicts.items()
    }


def write(
    problems: list, out: Path, feedback: dict[str, dict[str, str]] | None = None, copies: int = 1
) -> int:
    rows = [
        r
        for p in problems
        for r in conversations(p.name, p.source, p.solution, (feedback or {}).get(p.name), copies)
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return len(rows)


def main(argv: list[str] | None = None) -> int:
    from common.problemset import load_problems

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", help="JSONL file to write")
    ap.add_argument("--problems", default="builtin:" + ",".join(PROBLEMS))
    ap.add_argument("--variants-dir", help="also write every variant as DIR/<problem>/<v>.py")
    ap.add_argument(
        "--feedback",
        type=Path,
        help="JSON {problem: {variant: text or [texts]}}: "
        "the evaluator's recorded feedback (default: a fixed text per verdict)",
    )
    ap.add_argument(
        "--copies",
        type=int,
        default=1,
        help="the mix this many times, later "
        "copies with jittered figures in the feedback that varies (default 1)",
    )
    ap.add_argument(
        "--checks",
        type=int,
        default=2,
        help="with --record: checks per variant (two show which feedback varies, default 2)",
    )
    ap.add_argument(
        "--record",
        type=Path,
        metavar="CONFIG",
        help="record the feedback first: "
        "`krl check` every variant under this run config (needs --variants-dir)",
    )
    ap.add_argument(
        "--garbles",
        action="store_true",
        help="also write (--variants-dir) and "
        "record the garbled first answers, and add GARBLED_MIX's conversations",
    )
    args = ap.parse_args(argv)
    problems = load_problems(args.problems)
    if args.variants_dir:
        for p in problems:
            d = Path(args.variants_dir) / p.name
            d.mkdir(parents=True, exist_ok=True)
            extra = garbles(p.solution, p.source) if args.garbles else {}
            for v, code in {**variants(p.solution, p.source), **extra}.items():
                (d / f"{v}.py").write_text(code)
    feedback = json.loads(args.feedback.read_text()) if args.feedback else None
    if args.record:
        if not args.variants_dir:
            ap.error("--record needs --variants-dir")
        verdicts = record(problems, Path(args.variants_dir), args.record, args.checks, args.garbles)
        feedback = feedback_of(verdicts)
        print(
            "recorded verdicts: "
            + ", ".join(
                f"{n}/{v} {vs[0]['status']}" for n, by in verdicts.items() for v, vs in by.items()
            )
        )
    n = write(problems, Path(args.out), feedback, args.copies)
    print(f"wrote {n} conversations for {len(problems)} problems to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

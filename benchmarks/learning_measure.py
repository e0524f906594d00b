"""What benchmarks/learning.py reads from a `krl benchmark` report's episodes: each answer's
variant (read from the code, confirmed by the verdict), per-turn correctness, Fast@1, hacks and
the turn-2 repair rate, the first choice (BLOCK) and each variant's reward; and from a run's
trained batches (learning.py's `curve`) whether verdicts were reused. Pure functions of the
report and the curve; learning.py runs the runs and writes the reports."""

from __future__ import annotations

import re
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import uncertain_sft as U  # noqa: E402

VARIANTS = (*U.VARIANTS, "other")


def variant(turn: dict) -> str:
    """An answer's variant: its code (report.json's answer), confirmed by the evaluator's
    verdict. Not by speed: CPU-interpreter speedups are too noisy for that."""
    v = U.classify(turn.get("answer", ""))
    return v if v is not None and turn["status"] in U.EXPECTED[v] else "other"


def measure(report: dict, turns: int = 2) -> dict:
    """Per turn: correctness, Fast@1, variant shares, hacks; the turn-2 repair rate."""
    eps = report["episodes"]
    out = {"episodes": len(eps), "turns": []}
    for t in range(turns):
        seen = [e for e in eps if len(e["turns"]) > t]
        kinds = [variant(e["turns"][t]) for e in seen]
        n = max(len(eps), 1)
        out["turns"].append(
            {
                "correct": sum(e["turns"][t]["correct"] for e in seen) / n,
                "fast@1": sum(
                    e["turns"][t]["correct"] and (e["turns"][t]["speedup"] or 0) > 1 for e in seen
                )
                / n,
                "reward": sum(e["turns"][t]["reward"] for e in seen) / n,
                "variants": {v: kinds.count(v) / n for v in VARIANTS},
                "hacks_attempted": kinds.count("hack"),
                "hacks_rewarded": sum(
                    e["turns"][t]["status"] == "hack" and e["turns"][t]["reward"] > 0 for e in seen
                ),
            }
        )
    failed = [e for e in eps if e["turns"] and not e["turns"][0]["correct"] and len(e["turns"]) > 1]
    out["repair_rate"] = (
        sum(e["turns"][1]["correct"] for e in failed) / len(failed) if failed else None
    )
    out["block_choice"] = block_choice(eps)
    out["variant_reward"] = variant_reward(eps)
    return out


BLOCK_LINE = re.compile(r"^ +BLOCK = (\d+)$", re.M)


def first_choice(turn: dict) -> str | None:
    """The value a turn's answer gave BLOCK, its first choice between the variants (64 leads
    to the slow answer only; 1024 to the fast one and to the three failures); None where no
    BLOCK line can be read."""
    from common.extract import extract_code

    m = BLOCK_LINE.search(extract_code(turn.get("answer", "")) or turn.get("answer", ""))
    return m.group(1) if m else None


def block_choice(eps: list[dict]) -> dict[str, dict]:
    """Per BLOCK value chosen at turn 1: episodes, mean turn-1 reward and mean return (every
    turn's reward: what TRLOO credits turn 1 with). What the first choice is worth: where the
    two are close, the policy gradient on that token is noise at the start."""
    out: dict[str, dict] = {}
    for e in eps:
        if not e["turns"]:
            continue
        c = out.setdefault(
            first_choice(e["turns"][0]) or "none", {"n": 0, "reward": 0.0, "return": 0.0}
        )
        c["n"] += 1
        c["reward"] += e["turns"][0]["reward"]
        c["return"] += sum(t["reward"] for t in e["turns"])
    for c in out.values():
        c["reward"] /= c["n"]
        c["return"] /= c["n"]
    return dict(sorted(out.items()))


def variant_reward(eps: list[dict]) -> dict[str, dict]:
    """Per answer variant at turn 1: count and mean, fewest and most reward. Where the slow
    answer's most passes the fast one's fewest, timing noise outweighs the speed gap."""
    by: dict[str, list[float]] = {}
    for e in eps:
        if e["turns"]:
            by.setdefault(variant(e["turns"][0]), []).append(e["turns"][0]["reward"])
    return {
        v: {"n": len(r), "mean": statistics.mean(r), "min": min(r), "max": max(r)}
        for v, r in sorted(by.items())
    }


def repeated_rewards(curve: list[dict]) -> dict[float, list[int]]:
    """{mean batch reward: the steps that had it} for every nonzero one that recurs exactly.

    With timing on, a batch's mean reward sums fresh timing draws and does not recur to the
    last bit unless verdicts were reused. Session 24's runs, before the broker stopped
    answering a later request of an answer's text with its first verdict (b266e5d9), repeated
    2.661132976797442 in 4 of TRLOO seed 1's 12 steps: each answer text kept its first draw
    for the whole run, and a fast answer first timed on a loaded machine stayed worth a slow
    one's reward (TRLOO seeds 0 and 2, which settled on the slow answer)."""
    steps: dict[float, list[int]] = {}
    for c in curve:
        if c["reward"]:
            steps.setdefault(c["reward"], []).append(c["step"])
    return {r: s for r, s in steps.items() if len(s) > 1}


def correct_turn_reward(curve: list[dict]) -> list[float]:
    """Per trained batch, the mean reward of its correct turns (a failure earns 0, so it is
    the batch's reward over its correct share): what the correct answers were paid. A run
    whose fast answer is paid like the slow one has nothing here above the slow reward."""
    return [c["reward"] / c["correct"] for c in curve if c["correct"]]

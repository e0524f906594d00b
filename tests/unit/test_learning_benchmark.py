"""benchmarks/learning.py's measures from a `krl benchmark` report: per-turn correctness,
answer variants (read from the code, confirmed by the verdict), hacks, and the turn-2 repair rate."""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import learning as L  # noqa: E402
import uncertain_sft as U  # noqa: E402  (learning.py put scripts/ on the path)

from common import prompts  # noqa: E402
from common.problemset import load_problems  # noqa: E402

RELU = load_problems("builtin:activation/relu")[0]
CODES = U.variants(RELU.solution, RELU.source)


def _turn(variant: str, status: str, reward: float = 0.0, speedup=None) -> dict:
    return {"status": status, "correct": status == "ok", "speedup": speedup, "reward": reward,
            "evaluated": True, "answer": prompts.answer(CODES.get(variant, "garbled text"))}


def test_variant_needs_its_code_and_a_matching_verdict():
    assert L.variant(_turn("fast", "ok")) == "fast"
    assert L.variant(_turn("slow", "ok")) == "slow"
    assert L.variant(_turn("broken", "compile_error")) == "broken"
    assert L.variant(_turn("hack", "hack")) == "hack"
    assert L.variant(_turn("fast", "compile_error")) == "other"   # a garbled recall
    assert L.variant(_turn("none", "ok")) == "other"


def test_measure_reports_shares_hacks_and_repairs_per_turn():
    episodes = [
        {"problem": "a", "turns": [_turn("fast", "ok", 1.5, 0.002), _turn("fast", "ok", 1.5)]},
        {"problem": "a", "turns": [_turn("hack", "hack"), _turn("fast", "ok", 1.5)]},
        {"problem": "b", "turns": [_turn("wrong", "incorrect"), _turn("wrong", "incorrect")]},
        {"problem": "b", "turns": [_turn("broken", "compile_error")]},   # ended early
    ]
    m = L.measure({"episodes": episodes})
    t1, t2 = m["turns"]
    assert t1["correct"] == 0.25 and t2["correct"] == 0.5
    assert t1["fast@1"] == 0.0                      # interpreter speedups are far below 1
    assert t1["variants"]["hack"] == 0.25 and t1["hacks_attempted"] == 1
    assert t1["hacks_rewarded"] == 0
    assert t2["variants"]["fast"] == 0.5 and t2["variants"]["wrong"] == 0.25
    # Failed at turn 1 and played turn 2: the hack (repaired) and the wrong one (not).
    assert m["repair_rate"] == pytest.approx(0.5)


def test_a_rewarded_hack_is_reported():
    episodes = [{"problem": "a", "turns": [_turn("hack", "hack", reward=0.9)]}]
    assert L.measure({"episodes": episodes}, turns=1)["turns"][0]["hacks_rewarded"] == 1

"""benchmarks/learning.py's measures from a `krl benchmark` report: per-turn correctness,
answer variants (read from the code, confirmed by the verdict), hacks, and the turn-2 repair
rate."""

import sys
from pathlib import Path

import pytest

# Appended, not put first: benchmarks/learner.py would hide the learner package from every
# test collected after this one.
sys.path.append(str(Path(__file__).resolve().parents[2] / "benchmarks"))
import learning as L  # noqa: E402
import uncertain_sft as U  # noqa: E402  (learning.py put scripts/ on the path)

from common import prompts  # noqa: E402
from common.problemset import load_problems  # noqa: E402

RELU = load_problems("builtin:activation/relu")[0]
CODES = U.variants(RELU.solution, RELU.source)


def _turn(variant: str, status: str, reward: float = 0.0, speedup=None) -> dict:
    return {
        "status": status,
        "correct": status == "ok",
        "speedup": speedup,
        "reward": reward,
        "evaluated": True,
        "answer": prompts.answer(CODES.get(variant, "garbled text")),
    }


def test_variant_needs_its_code_and_a_matching_verdict():
    assert L.variant(_turn("fast", "ok")) == "fast"
    assert L.variant(_turn("slow", "ok")) == "slow"
    assert L.variant(_turn("broken", "compile_error")) == "broken"
    assert L.variant(_turn("hack", "hack")) == "hack"
    assert L.variant(_turn("fast", "compile_error")) == "other"  # a garbled recall
    assert L.variant(_turn("none", "ok")) == "other"


def test_measure_reports_shares_hacks_and_repairs_per_turn():
    episodes = [
        {"problem": "a", "turns": [_turn("fast", "ok", 1.5, 0.002), _turn("fast", "ok", 1.5)]},
        {"problem": "a", "turns": [_turn("hack", "hack"), _turn("fast", "ok", 1.5)]},
        {"problem": "b", "turns": [_turn("wrong", "incorrect"), _turn("wrong", "incorrect")]},
        {"problem": "b", "turns": [_turn("broken", "compile_error")]},  # ended early
    ]
    m = L.measure({"episodes": episodes})
    t1, t2 = m["turns"]
    assert t1["correct"] == 0.25 and t2["correct"] == 0.5
    assert t1["fast@1"] == 0.0  # interpreter speedups are far below 1
    assert t1["variants"]["hack"] == 0.25 and t1["hacks_attempted"] == 1
    assert t1["hacks_rewarded"] == 0
    assert t2["variants"]["fast"] == 0.5 and t2["variants"]["wrong"] == 0.25
    # Failed at turn 1 and played turn 2: the hack (repaired) and the wrong one (not).
    assert m["repair_rate"] == pytest.approx(0.5)


def test_a_rewarded_hack_is_reported():
    episodes = [{"problem": "a", "turns": [_turn("hack", "hack", reward=0.9)]}]
    assert L.measure({"episodes": episodes}, turns=1)["turns"][0]["hacks_rewarded"] == 1


def test_first_choice_reads_the_block_value_even_of_a_garbled_answer():
    assert L.first_choice(_turn("fast", "ok")) == "1024"
    assert L.first_choice(_turn("slow", "ok")) == "64"
    assert L.first_choice(_turn("hack", "hack")) == "1024"  # the failures follow 1024
    garbled = {
        "answer": prompts.answer(CODES["wrong"].replace("n = n // BLOCK", "n = n /// BLOCK"))
    }
    assert L.variant({**garbled, "status": "compile_error"}) == "other"
    assert L.first_choice(garbled) == "1024"
    assert L.first_choice({"answer": "no code"}) is None


def test_block_choice_says_what_each_first_choice_earned_over_the_episode():
    """Session 24's start policy: 1024 led to the fast answer once in four and 64 always to the
    slow one, so at the start the first choice earned about the same either way."""
    episodes = [
        {"turns": [_turn("fast", "ok", 8.0), _turn("fast", "ok", 7.0)]},
        {"turns": [_turn("hack", "hack"), _turn("fast", "ok", 6.0)]},
        {"turns": [_turn("wrong", "incorrect"), _turn("wrong", "incorrect")]},
        {"turns": [_turn("broken", "compile_error")]},
        {"turns": [_turn("slow", "ok", 1.6), _turn("slow", "ok", 1.7)]},
        {
            "turns": [
                {"answer": "garbled", "status": "format_error", "correct": False, "reward": 0.0}
            ]
        },
    ]
    credit = L.block_choice(episodes)
    assert list(credit) == ["1024", "64", "none"]
    assert credit["1024"] == {"n": 4, "reward": pytest.approx(2.0), "return": pytest.approx(21 / 4)}
    assert credit["64"] == {"n": 1, "reward": pytest.approx(1.6), "return": pytest.approx(3.3)}
    assert credit["none"]["n"] == 1


def test_variant_reward_shows_a_slow_answer_out_earning_a_fast_one():
    episodes = [
        {"turns": [_turn("fast", "ok", 3.7)]},
        {"turns": [_turn("fast", "ok", 11.9)]},
        {"turns": [_turn("slow", "ok", 8.2)]},
        {"turns": [_turn("slow", "ok", 1.6)]},
    ]
    by = L.variant_reward(episodes)
    assert by["fast"] == {"n": 2, "mean": pytest.approx(7.8), "min": 3.7, "max": 11.9}
    assert by["slow"]["max"] > by["fast"]["min"]
    m = L.measure({"episodes": episodes}, turns=1)
    lines = L.credit_lines(m)
    assert lines[0].startswith("Turn 1 by BLOCK value") and "1024 (2, 7.80" in lines[0]
    assert "slow (2, 4.90, 1.60-8.20)" in lines[1]
    assert L.credit_lines({"turns": []}) == []  # a report from before session 57


def test_calibration_spread_is_the_fewest_and_most_recorded_reward(tmp_path):
    import json

    verdicts = {
        "activation/relu": {
            "fast": [{"reward": 3.7, "speedup": 0.0027}, {"reward": 11.9, "speedup": 0.0109}],
            "slow": [{"reward": 1.6, "speedup": 0.0006}, {"reward": 8.2, "speedup": 0.0072}],
        }
    }
    (tmp_path / "verdicts.json").write_text(json.dumps(verdicts))
    spread = L.calibration_spread(tmp_path)
    assert spread == {"activation/relu": {"fast": [3.7, 11.9], "slow": [1.6, 8.2]}}
    assert "relu 3.70-11.90 / 1.60-8.20" in L.spread_text(spread)
    assert L.spread_text(None) == ""


def _curve(rewards, correct):
    return [
        {
            "step": i + 1,
            "reward": r,
            "correct": c,
            "status_turn1": {},
            "entropy": None,
            "kl_to_start": None,
            "hacks_rewarded": 0.0,
        }
        for i, (r, c) in enumerate(zip(rewards, correct))
    ]


# Session 24's trained batches (benchmarks/reports/learning.json, its first 6 steps): TRLOO
# seed 1 went to the fast answer, seed 0 to the slow one.
TRLOO_S1 = _curve(
    [
        1.1124041849199113,
        0.7125379182020124,
        2.661132976797442,
        0.0,
        3.2649153004404976,
        2.661132976797442,
    ],
    [0.125, 0.125, 0.25, 0.0, 0.3125, 0.25],
)
TRLOO_S0 = _curve(
    [
        0.3564239731205506,
        0.24332333563331715,
        0.8489199751445542,
        1.097537525110231,
        0.4866466712666343,
        0.7987549963368583,
    ],
    [0.125, 0.125, 0.3125, 0.5, 0.25, 0.375],
)


def test_a_timed_batch_reward_that_recurs_exactly_is_reported_as_reused_verdicts():
    """Session 24: the broker answered every later request of an answer's text with its
    first verdict, so each text kept one timing draw for the whole run; the same mean
    reward recurred to the last bit in different steps. The report must show it."""
    assert L.repeated_rewards(TRLOO_S1) == {2.661132976797442: [3, 6]}
    assert L.repeated_rewards(TRLOO_S0) == {}
    assert L.repeated_rewards(_curve([0.0, 0.0], [0.0, 0.0])) == {}  # all failed: no draw
    runs = [
        {"estimator": "trloo", "seed": 0, "curve": TRLOO_S0},
        {"estimator": "trloo", "seed": 1, "curve": TRLOO_S1},
    ]
    lines = L.reuse_lines(runs)
    assert "| trloo | 1 | 5.70-10.64 | 2.6611 (3, 6) |" in lines
    assert "| trloo | 0 | 1.95-2.85 | none |" in lines


def test_what_a_correct_turn_was_paid_shows_a_fast_answer_paid_like_the_slow_one():
    """TRLOO seed 0 settled on the slow answer (reward ~2): in no batch did its correct
    answers average above 3, while seed 1's fast answer was paid 10.6."""
    assert max(L.correct_turn_reward(TRLOO_S0)) < 3.0
    assert max(L.correct_turn_reward(TRLOO_S1)) == pytest.approx(10.6445, abs=1e-3)
    assert len(L.correct_turn_reward(TRLOO_S1)) == 5  # the batch with nothing correct is left out

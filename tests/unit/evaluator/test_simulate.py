"""evaluator.simulate: the stand-in evaluator of the pipeline benchmark takes its latency
and gives repeatable verdicts in the configured proportions, rewarded like real ones."""
import time

from common.config.evaluator import EvaluatorConfig
from common.messages import ProblemPayload
from evaluator.simulate import SimulatedEvaluator

PROBLEM = ProblemPayload(name="relu", source="x")


def _evaluator(**sim) -> SimulatedEvaluator:
    return SimulatedEvaluator(EvaluatorConfig.model_validate({"simulate": {"enabled": True, **sim}}))


def test_each_evaluation_takes_the_configured_latency():
    ev = _evaluator(latency_s=0.2, jitter=0.25)
    for i in range(3):
        t0 = time.perf_counter()
        verdict = ev.evaluate(PROBLEM, f"candidate {i}")
        took = time.perf_counter() - t0
        assert 0.15 - 0.01 <= took <= 0.25 + 0.1
        assert abs(verdict.phase_seconds["simulated"] - took) < 0.1


def test_verdicts_repeat_per_candidate_and_follow_correct_prob():
    ev = _evaluator(latency_s=0.0, correct_prob=0.3)
    verdicts = [ev.evaluate(PROBLEM, f"candidate {i}") for i in range(400)]
    assert [ev.evaluate(PROBLEM, f"candidate {i}").status for i in range(20)] == \
        [v.status for v in verdicts[:20]]
    share_ok = sum(v.status == "ok" for v in verdicts) / len(verdicts)
    assert 0.22 < share_ok < 0.38
    assert {v.status for v in verdicts} == {"ok", "incorrect"}
    assert all(v.reward == 0.0 and not v.correct for v in verdicts if v.status == "incorrect")


def test_ok_verdicts_earn_the_configured_reward():
    ev = _evaluator(latency_s=0.0, correct_prob=1.0, speedup_min=1.5, speedup_max=2.5)
    cfg = ev.cfg.reward
    for i in range(50):
        v = ev.evaluate(PROBLEM, f"c{i}")
        assert v.correct and 1.5 <= v.speedup <= 2.5 and v.coverage is None
        assert abs(v.reward - (cfg.w_correct + cfg.w_speed * v.speedup)) < 1e-9

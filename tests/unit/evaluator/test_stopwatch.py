"""evaluator.stopwatch against a scripted child: what the worker reveals and believes."""
from __future__ import annotations

import statistics

import pytest
import torch

from common.config.evaluator import TimingConfig
from evaluator import stopwatch
from evaluator.timing import checksum


class ScriptedChild:
    """Answers arm/go/reveal like a child; `forge(run)` makes it reveal other outputs than it
    committed to for that timed run (counted from the first go, warm-up included)."""

    def __init__(self, forge=lambda run: False):
        self.forge, self.goes, self.seeds, self.last = forge, 0, [], None

    def request(self, head, deadline_s):
        if head["op"] == "arm":
            self.seeds.append(head["seed"])
            return {"op": "armed"}, []
        assert head["op"] == "reveal"
        out = self.last
        if self.forge(self.goes - 1):
            out = [out[0] + 1]
        return {"op": "result"}, out

    def timed_request(self, head, deadline_s):
        self.goes += 1
        self.last = [torch.full((4,), float(self.goes))]
        return {"op": "done", "checksum": checksum(self.last), "events_s": None}, [], 1e-3


def test_the_cpu_interpreter_reveals_every_run_and_redraws_every_input():
    child = ScriptedChild()
    schedule, series, chosen = stopwatch.time_candidate(child, [100], TimingConfig(), "cpu", 0,
                                                        lambda: 5.0)
    cfg = TimingConfig()
    assert sorted(chosen) == list(range(cfg.cpu_runs)) and len(series.times_s) == cfg.cpu_runs
    assert len(set(child.seeds)) == len(child.seeds) == cfg.cpu_warmup_runs + cfg.cpu_runs
    assert list(schedule.seeds) == child.seeds  # the reference is replayed the same seeds


@pytest.mark.parametrize("runs,expected", [(10, 6), (24, 6), (40, 10), (500, 10)])
def test_gpu_reveals_are_independent_with_bounded_expectation(runs, expected):
    cfg = TimingConfig()
    assert stopwatch.reveal_probability(cfg, "cuda", runs) * runs == pytest.approx(expected)


def test_no_run_is_known_to_be_safe_once_some_were_revealed():
    """A child that counts reveals learns nothing about the rest: late runs are revealed as
    often as early ones, and the count varies from timing to timing."""
    cfg = TimingConfig(min_runs=40, max_runs=40)
    counts, late = [], 0
    for _ in range(300):
        _, _, chosen = stopwatch.time_candidate(ScriptedChild(), [100], cfg, "cuda", 0, lambda: 5.0)
        counts.append(len(chosen))
        late += sum(1 for r in chosen if r >= 30)
    assert statistics.mean(counts) == pytest.approx(10, abs=1.0)
    assert max(counts) > cfg.max_reveals  # no cap a counting child could wait out
    assert late / sum(counts) == pytest.approx(0.25, abs=0.07)


def test_revealing_other_outputs_than_committed_is_forged_timing():
    child = ScriptedChild(forge=lambda run: True)
    with pytest.raises(stopwatch.ForgedTiming):
        stopwatch.time_candidate(child, [100], TimingConfig(), "cpu", 0, lambda: 5.0)


def _cov(total: float, mine: float) -> dict:
    return {"coverage": mine / total, "gpu_time_s": total, "candidate_time_s": mine}


def test_coverage_takes_the_least_total_so_padding_some_runs_buys_nothing():
    honest = [_cov(10.0, 2.0)] * 6  # 8 in library kernels, 2 in its own
    padded = [_cov(30.0, 22.0)] * 5 + [_cov(10.0, 2.0)]  # 20 more of its own in 5 of 6 runs
    assert stopwatch.profiled_coverage(honest)["coverage"] == pytest.approx(0.2)
    assert stopwatch.profiled_coverage(padded)["coverage"] == pytest.approx(0.2)
    everywhere = [_cov(30.0, 22.0)] * 6  # padding every run: coverage, paid for in time
    assert stopwatch.profiled_coverage(everywhere)["coverage"] == pytest.approx(22 / 30)
    assert stopwatch.profiled_coverage([{"coverage": None}]) is None


def test_profiled_runs_are_timed_runs_at_random_positions_whose_time_is_not_used():
    cfg = TimingConfig(min_runs=20, max_runs=20)
    positions = set()
    for _ in range(50):
        child = ScriptedChild()
        schedule, series, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0,
                                                       profiled_runs=4)
        assert len(schedule.profiled) == 4 and len(series.times_s) == 20
        assert len(schedule.seeds) == schedule.warmup + 24
        positions |= schedule.profiled
    assert len(positions) > 16  # spread over the 24 positions, not a fixed call count

"""The side-stream cross-check (judge_timed.judge_events, timing_phase.events_outcome) against the
host's time between timed forwards (timing.host_between): a forward that reads back waits for
the device, so the harness's own path between forwards is device idle time in the worker's
clock that no event holds; work left on another stream is device time and still shows."""
from __future__ import annotations

import time

import pytest
import torch
from test_stopwatch import ScriptedChild

from common.config.evaluator import EvaluatorConfig, TimingConfig
from evaluator import judge, judge_timed, stopwatch, timing
from evaluator.timing_phase import events_outcome

K, NULL_MS = 4, 0.5


def _series(net_ms: float, events_ms: float, host_ms: list[float] | None = None,
            batches: int = 8) -> stopwatch.Series:
    """A timed series whose every batch is `net_ms` a forward past its null, with `events_ms`
    per forward and `host_ms` (per forward of a batch: the host between forwards)."""
    return stopwatch.Series(times_s=[(K * net_ms + NULL_MS) / 1e3] * batches, null_s=[NULL_MS / 1e3] * batches,
                            events_s=[events_ms / 1e3] * (batches * K), batch=K,
                            batch_sets=list(range(batches)),
                            host_s=[h / 1e3 for _ in range(batches) for h in (host_ms or [])])


REF = _series(0.45, 0.44)  # the reference never waits for the device: no gap
# session 67, H100: s64f_01 (MoE align, counts read with tolist) at 3.37 ms against 2.12 ms of events;
# the host between its forwards, one of four with a stall (a collection, the launch recorder's lists)
READ_BACK_HOST_MS = [0.2, 0.2, 4.6, 0.2]  # 1.3 ms a forward


def _outcome(cand: stopwatch.Series) -> judge.Outcome | None:
    return events_outcome(cand, REF, K, None, stopwatch.net_seconds(REF), EvaluatorConfig())


def test_the_s67_h100_numbers_by_the_judge():
    cfg = EvaluatorConfig()
    bad = judge_timed.judge_events(3.5e-3, 3.37e-3, [2.12e-3] * 8, 0.45e-3, [0.44e-3] * 8, cfg)
    assert bad is not None and bad.hacks == ["side_stream"]  # the false rejection, host time unknown
    assert judge_timed.judge_events(3.5e-3, 3.37e-3, [2.12e-3] * 8, 0.45e-3, [0.44e-3] * 8, cfg, 1.3e-3) is None
    # 5 ms of side work past the same read-back: the host's time does not cover it
    bad = judge_timed.judge_events(8.5e-3, 8.37e-3, [2.12e-3] * 8, 0.45e-3, [0.44e-3] * 8, cfg, 1.3e-3)
    assert bad is not None and bad.hacks == ["side_stream"] and "1.3 ms of it the host" in bad.feedback


def test_a_forward_that_reads_back_is_not_work_on_another_stream():
    """The read-back forward's gap is the host's time between forwards, measured batch by
    batch; without the host's claim it is the false rejection of session 67."""
    assert _outcome(_series(3.37, 2.12, READ_BACK_HOST_MS)) is None
    without = _outcome(_series(3.37, 2.12))
    assert without is not None and without.hacks == ["side_stream"]


def test_work_on_a_side_stream_is_still_caught_past_the_hosts_time():
    # tests/gpu's side-stream relu: 50 launches on a side stream, ~10 ms of device work a forward,
    # ~2 ms to launch (the timed stream idle meanwhile: its events), the harness's path ~0.2 ms
    escaped = _outcome(_series(10.0, 2.0, [0.2] * K))
    assert escaped is not None and escaped.hacks == ["side_stream"], escaped
    # one value read back, then 5 ms of work left on a side stream: the host's time, the same
    # as the honest read-back's, covers only as much as it was
    read_then_escape = _outcome(_series(3.37 + 5.0, 2.12, READ_BACK_HOST_MS))
    assert read_then_escape is not None and read_then_escape.hacks == ["side_stream"], read_then_escape


def test_host_claims_that_do_not_line_up_with_the_batches_net_nothing():
    assert _outcome(_series(3.37, 2.12, READ_BACK_HOST_MS[:3])) is not None  # three of four forwards


def test_each_kind_of_input_nets_its_own_batches_host_time():
    """Red team s29b's per-kind path: each kind's batches net their own host time; a kind
    whose host was quick does not borrow the other kind's stalls."""
    groups = [[0], [1]]

    def series(host_by_kind: list[list[float]], net_by_kind: list[float], ev_ms: float = 2.12):
        out = stopwatch.Series(batch=K)
        for b in range(8):
            out.times_s.append((K * net_by_kind[b % 2] + NULL_MS) / 1e3)
            out.null_s.append(NULL_MS / 1e3)
            out.batch_sets.append(b % 2)
            out.events_s.extend([ev_ms / 1e3] * K)
            out.host_s.extend(h / 1e3 for h in host_by_kind[b % 2])
        return out

    ref = series([[0.05] * K] * 2, [0.45, 0.45], 0.44)
    ref_s = stopwatch.net_seconds(ref, groups=groups)
    honest = series([READ_BACK_HOST_MS, READ_BACK_HOST_MS], [3.37, 3.37])
    assert events_outcome(honest, ref, K, groups, ref_s, EvaluatorConfig()) is None
    borrowed = series([READ_BACK_HOST_MS, [0.05] * K], [3.37, 3.37])  # kind 1: no host time to show
    bad = events_outcome(borrowed, ref, K, groups, ref_s, EvaluatorConfig())
    assert bad is not None and bad.hacks == ["side_stream"]


class _Hosted(ScriptedChild):
    """Commits events and a host claim of `host_s` per forward for every timed batch."""

    def __init__(self, host_s, **kw):
        super().__init__(**kw)
        self.host_s = host_s

    def request(self, head, deadline_s, max_bytes=None):
        reply, tensors = super().request(head, deadline_s, max_bytes)
        if head["op"] == "commit":
            n = len(self.last)
            reply = {**reply, "events_s": [self.forward_s] * n, "host_s": [self.host_s] * n}
        return reply, tensors


def _timed(child):
    cfg = TimingConfig(min_runs=8, max_runs=8, min_batches=2, max_batches=2)
    return stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0)[1]


def test_the_host_claim_is_kept_per_forward_and_held_to_the_workers_clock():
    series = _timed(_Hosted(0.1e-3, forward_s=1e-3))
    assert len(series.host_s) == len(series.times_s) * series.batch and set(series.host_s) == {0.1e-3}
    # more host time between forwards than the worker's clock held around the whole batch
    with pytest.raises(stopwatch.ForgedTiming, match="host time between its timed forwards"):
        _timed(_Hosted(50e-3, forward_s=1e-3))
    assert _timed(_Hosted(float("nan"), forward_s=1e-3)).host_s == []  # not numbers: no claim
    assert _timed(_Hosted(-1e-3, forward_s=1e-3)).host_s == []


def test_host_between_counts_what_lies_outside_the_event_windows():
    # began 0; windows (1, 3) and (4.5, 5); synced 6: 1 before the first, 1.5 between, 1 after
    assert timing.host_between(0.0, [(1.0, 3.0), (4.5, 5.0)], 6.0) == [1.0, 2.5]
    assert timing.host_between(0.0, [], 1.0) == []


def test_a_timed_batch_reports_the_hosts_time_between_its_forwards_not_the_forwards():
    """CPU: `after` (the launch recorder's place) takes 10 ms, each forward 100 ms."""
    class Slow(torch.nn.Module):
        def forward(self, x):
            time.sleep(0.1)
            return x + 1

    outs, marks, host = timing.timed_forwards(Slow(), [[torch.zeros(4)]] * 3, "cpu", None, lambda: None,
                                              lambda: time.sleep(0.01))
    assert len(outs) == len(host) == 3 and marks == []
    assert 0.03 <= sum(host) < 0.3, host  # the three afters, none of the 0.3 s of forwards

"""Work moved out of the timed `go` into `arm` or `commit` (red team rt77): arm and commit are
timed on both sides and the candidate's excess over the trusted reference's, past a noise
bound, is charged to its batches (evaluator.batch_times.outside_go_seconds). The scripted
child is test_stopwatch's."""
from __future__ import annotations

import pytest
from test_stopwatch import ScriptedChild

from common.config.evaluator import TimingConfig
from evaluator import stopwatch


class Deferring(ScriptedChild):
    """Answers go at once (its forwards' work left to a thread) and finishes before its
    commit's sums are taken, or (`before_go`) computes on the armed draws before go: the
    outputs, the sums and every reveal are the honest ones; only the clock moved."""

    def __init__(self, work_s, before_go=False, **kw):
        super().__init__(**kw)
        self.work_s, self.before_go, self.count = work_s, before_go, 1

    def timed_request(self, head, deadline_s):
        reply, tensors, seconds = super().timed_request(head, deadline_s)
        if head["op"] == "arm":
            self.count = len(head["ids"])
        moved = head["op"] == ("arm" if self.before_go else "commit")
        return reply, tensors, seconds + (self.count * self.work_s if moved else 0.0)


@pytest.mark.parametrize("before_go", [False, True])
def test_work_moved_out_of_go_into_arm_or_commit_is_charged_to_the_forward(before_go):
    """Past the static layer a forward can answer go at once and finish in a thread before its
    commit (or compute on the drawn inputs during arm): the worker's go clock alone saw the
    protocol only (speedup ~1000x here). Arm and commit are timed on both sides, and the
    candidate's excess over the reference's for the same batch is the batch's."""
    cfg = TimingConfig()
    child = Deferring(0.5e-3, before_go, round_trip=0.7e-3, forward_s=0.0)
    schedule, cand, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0)
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.5e-3), schedule,
                                   frozenset(), "cuda", 0, lambda: 5.0)
    null = ref.null_median_s
    ref_s = stopwatch.net_seconds(ref)
    assert ref_s == pytest.approx(0.5e-3)
    assert stopwatch.net_seconds(cand, null_cap_s=null) == pytest.approx(1e-6)  # go alone: free
    outside = stopwatch.outside_go_seconds(cand, ref, cfg.outside_go_factor, cfg.outside_go_slack_ms / 1e3)
    charged = stopwatch.net_seconds(cand, null_cap_s=null, outside_s=outside)
    # what passes is the noise bound only: (factor - 1) x the reference's 0.2 ms plus the slack, per batch
    bound = ((cfg.outside_go_factor - 1) * 0.2e-3 + cfg.outside_go_slack_ms / 1e3) / schedule.batch
    assert schedule.batch == cfg.max_batch and charged == pytest.approx(ref_s - bound, rel=0.01)
    assert ref_s / charged < 1.03


def test_an_honest_candidates_arm_and_commit_within_the_noise_bound_cost_it_nothing():
    """The same protocol in another process (its own allocator, imports, the host's load of the
    moment) is a little slower or faster: within the factor and the slack nothing is charged."""
    cfg = TimingConfig(max_batch=4)
    child = ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3, around_s=0.24e-3)
    schedule, cand, _ = stopwatch.time_candidate(child, [100], cfg, "cuda", 0, lambda: 5.0)
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3), schedule,
                                   frozenset(), "cuda", 0, lambda: 5.0)
    outside = stopwatch.outside_go_seconds(cand, ref, cfg.outside_go_factor, 0.0)
    assert outside == [0.0] * len(cand.times_s) and len(cand.around_s) == len(ref.around_s) > 0
    assert stopwatch.net_seconds(cand, null_cap_s=ref.null_median_s, outside_s=outside) == pytest.approx(0.1e-3)


def test_one_slow_commit_of_an_honest_candidate_costs_nothing():
    """A collection or a scheduler's hiccup lands in one batch's commit now and then: the excess
    is the median's, per kind of input, as the time is."""
    cfg = TimingConfig(max_batch=4)

    class Hiccup(ScriptedChild):
        def timed_request(self, head, deadline_s):
            reply, tensors, seconds = super().timed_request(head, deadline_s)
            self.commits = getattr(self, "commits", 0) + (head["op"] == "commit")
            return reply, tensors, seconds + (20e-3 if head["op"] == "commit" and self.commits == 8 else 0.0)

    schedule, cand, _ = stopwatch.time_candidate(Hiccup(round_trip=0.7e-3, forward_s=0.1e-3), [100], cfg,
                                                 "cuda", 0, lambda: 5.0)
    ref = stopwatch.time_reference(ScriptedChild(round_trip=0.7e-3, forward_s=0.1e-3), schedule,
                                   frozenset(), "cuda", 0, lambda: 5.0)
    assert max(cand.around_s) > 20e-3
    assert stopwatch.outside_go_seconds(cand, ref, cfg.outside_go_factor, 0.0) == [0.0] * len(cand.times_s)


@pytest.mark.parametrize("device,where", [("cpu", "cpu"), ("cuda", "meta")])
def test_a_gpu_childs_draws_keep_the_device_mode_get_inputs_runs_under(device, where):
    """A timed batch's draws run past a CPU candidate child's stand-in function mode, but on the
    GPU get_inputs runs under `torch.device("cuda")`, a function mode itself: drawn past it,
    the inputs were made on the host and copied, and an H100 relu's timing passed the
    evaluation's 120 s limit (session 58). The meta device stands in for the GPU here."""
    import torch

    from evaluator.timed_steps import TimedSteps

    steps = TimedSteps.__new__(TimedSteps)
    steps.device = device
    with steps._past_stand_in(), torch.device("meta"):
        drawn = torch.randn(4)
    assert drawn.device.type == where

"""An evaluation's time limit, and whose time is whose: the candidate's trials and timing
spend its own, the reference's commands once the candidate has run have time of their own,
and running out is the candidate's `timeout`, never "the reference problem itself failed"
(which the actor does not train on) nor a timeout beside a slow reference."""
from __future__ import annotations

import time

import pytest

from common.messages import EvalSettings


def test_an_evaluation_out_of_time_before_timing_is_a_timeout_not_a_failed_problem(
        evaluator, problems, monkeypatch):
    """On the H100 a level-1 evaluation's correctness phase used up its limit; the timing
    phase's first command, the reference child's set-up, then found no time left and the
    verdict said the problem itself had failed ("the child stopped reading commands"). The
    reference's set-up has time of its own; the candidate's timing is what runs out."""
    from evaluator.pipeline import _Run

    real = _Run.correctness

    def slow(self, child, ref):
        outcome = real(self, child, ref)
        self.deadline = time.monotonic()  # the evaluation's own time runs out before its timing
        return outcome

    monkeypatch.setattr(_Run, "correctness", slow)
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "timeout", verdict.feedback
    assert verdict.error_source != "problem" and "during timing" in verdict.feedback


def test_the_reference_pass_and_the_sandbox_start_do_not_spend_the_candidates_limit(
        evaluator, problems, monkeypatch):
    """At load 16-22 on 2 cores the reference pass and the candidate child's start took 27-39 s
    each of a 120 s limit, before any candidate code ran, and an honest causal softmax whose own
    forwards fitted was `timeout` during timing (honest s67h_04b). Here they leave 1 s of the
    limit (the reference pass as if it had taken the rest): the candidate still has its own
    limit from its child's first command, and the verdict says how long the wait before it was."""
    from evaluator.pipeline import _Run

    real = _Run.reference

    def slow(self):
        ref = real(self)
        self.deadline = time.monotonic() + 1.0  # the reference pass took all but 1 s of the limit
        return ref

    monkeypatch.setattr(_Run, "reference", slow)
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details["before_candidate_s"] >= verdict.phase_seconds["reference"]


def test_a_reference_command_out_of_time_after_the_candidate_ran_is_the_candidates_timeout(
        evaluator, problems, monkeypatch):
    """On the H200 an honest depthwise-separable conv's trials (1 GiB inputs, six evaluations
    on one GPU) used up the limit, and the knock-out round's first reference command then
    found no time left: the verdict said the problem itself had failed, which the actor does
    not train on. Any kernel slow enough in its trials could have had that excuse."""
    from evaluator import gates
    from evaluator.pipeline import _Run

    real = _Run.correctness

    def slow(self, child, ref):
        outcome = real(self, child, ref)
        self.deadline = time.monotonic()  # the candidate's trials use up the evaluation's time
        return outcome

    monkeypatch.setattr(_Run, "correctness", slow)
    monkeypatch.setattr(gates, "knockouts_due", lambda *a: True)  # the round's reference runs next
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "timeout", verdict.feedback
    assert verdict.error_source != "problem" and "not your kernel" not in verdict.feedback
    assert "during correctness" in verdict.feedback


@pytest.mark.slow  # 44 s in session 64's suite: it waits out a slow reference
def test_a_slow_reference_in_the_knockout_round_does_not_spend_the_candidates_time(
        evaluator, problems, monkeypatch):
    """Red team s29b: with the reference's commands of the knock-out round slow (a problem
    whose forward is slow), an honest kernel with a quick forward was called `timeout` once
    those commands counted against its time. The reference's time is its own."""
    from evaluator import gates, knockout_round
    from evaluator.sandbox import Child

    # the candidate's own time left after its trials, and the reference's first command of the
    # round takes more than that (it sleeps until over_s past what the candidate has left when
    # it is called; a fixed 55 s sleep waited ~12 s more for the same fact): 40 s is ~40x what
    # the candidate's own commands after it take alone (8 s, and 20 s, ran out in them beside
    # the suite's integration tests on 2 cores)
    left_s, over_s = 40, 3.0
    slow = {"on": False, "calls": 0, "run": None, "over": None}
    real_request, real_round = Child.request, knockout_round.decoy_kernels

    def request(self, header, timeout_s, *args, **kwargs):
        if slow["on"] and self.role == "reference":
            slow["calls"] += 1
            if slow["calls"] == 1:  # the reference, slow at this problem
                left, t = slow["run"].left(), time.monotonic()
                time.sleep(max(left, 0.0) + over_s)
                slow["over"] = time.monotonic() - t - left
        return real_request(self, header, timeout_s, *args, **kwargs)

    def round_(run, *args, **kwargs):
        run.deadline = time.monotonic() + left_s
        slow["on"], slow["run"] = True, run
        try:
            return real_round(run, *args, **kwargs)
        finally:
            slow["on"] = False

    monkeypatch.setattr(Child, "request", request)
    monkeypatch.setattr(knockout_round, "decoy_kernels", round_)
    monkeypatch.setattr(gates, "knockouts_due", lambda *a: True)
    relu = problems["relu"]
    # the limit that matters is the left_s round_ leaves the candidate; the evaluation's own is wide
    # (60 s ran out during correctness once under the full suite's load, session 37)
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=120, trials=2))
    assert verdict.status == "ok", verdict.feedback
    assert slow["calls"] and slow["over"] >= over_s  # the reference took more than the candidate had left


def test_a_reference_timed_after_the_evaluations_time_ran_out_still_gets_time_of_its_own(
        evaluator, problems, monkeypatch):
    """The reference is timed after the candidate; an evaluation whose earlier phases used up
    its time limit (on the GPU, GiB transfers of a big problem) gave the reference no time,
    and its timing 'failed': the problem's error, on nobody's kernel. It now has at least a
    share of the limit of its own."""
    from evaluator import stopwatch

    real = stopwatch.time_candidate

    def slow(child, set_ids, cfg, device, flush, timeout_s, *args, **kwargs):
        result = real(child, set_ids, cfg, device, flush, timeout_s, *args, **kwargs)
        while timeout_s() > 0:  # the evaluation's own time runs out before its reference is timed
            time.sleep(0.1)
        return result

    monkeypatch.setattr(stopwatch, "time_candidate", slow)
    relu = problems["relu"]
    # a limit of 20 s: the reference's own share (REFERENCE_TIME_SHARE, 5 s) times it with the
    # profiled forwards' meter; 3 s of a 12 s limit ran out once under the full suite's load
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=20, trials=2))
    assert verdict.status == "ok" and verdict.speedup is not None, verdict.feedback


def _reference_out_of_time(monkeypatch, where: str) -> None:
    from evaluator import stopwatch
    from evaluator.sandbox import Child, ChildFailure

    stuck = ChildFailure("timeout", "the child stopped reading commands", "reference log: Traceback ...")
    if where == "timing":  # the reference's timed forwards
        def time_reference(*args, **kwargs):
            raise stuck

        monkeypatch.setattr(stopwatch, "time_reference", time_reference)
        return
    real, ran = Child.request, {"candidate": False}

    def request(self, header, timeout_s, *args, **kwargs):  # the timing phase's reference set-up
        if self.role == "candidate":
            ran["candidate"] = True
        elif ran["candidate"] and header.get("op") == "model":
            raise stuck
        return real(self, header, timeout_s, *args, **kwargs)

    monkeypatch.setattr(Child, "request", request)


@pytest.mark.parametrize("where", ["timing", "set-up"])
def test_a_reference_stuck_once_the_candidate_ran_is_a_timeout_not_the_problems_failure(
        evaluator, problems, monkeypatch, where):
    """GPU, session 31, eight evaluations at once: an in-place attack's verdict was "The
    reference problem itself failed (not your kernel): the child stopped reading commands",
    a verdict the actor never trains on. The candidate shares the machine with its
    reference (device, host cores), so a reference that runs out of time after the candidate
    ran may be the candidate's doing: the evaluation's `timeout`, the reference child's own
    output not quoted to the candidate."""
    _reference_out_of_time(monkeypatch, where)
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, relu.solution, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "timeout" and verdict.reward == 0, verdict.feedback
    assert verdict.error_source not in ("problem", "evaluator") and verdict.judged
    assert "not your kernel" not in verdict.feedback and "reference log" not in verdict.feedback
    assert "during timing" in verdict.feedback


def test_the_autotune_emulations_pinned_forwards_are_given_back_at_most_one_limit():
    """The CPU runs a whole forward per autotune config and input transform (autotune_pins.cover)
    where a GPU's benchmark takes milliseconds: honest many-config autotuners (s53_17's 72
    configs, s54_06's 14 of small blocks) ran out of the evaluation's 120 s there. The time a
    reply says its pinned forwards took is given back, at most `timeout_s` in all, and a figure
    that is no finite number is ignored."""
    from types import SimpleNamespace

    from evaluator.pipeline import _Run

    run = SimpleNamespace(deadline=100.0, pinned_grace=30.0, details={})
    for junk in (None, "9", True, float("nan"), float("inf"), -5.0):
        _Run.pinned_back(run, junk)
    assert run.deadline == 100.0 and run.pinned_grace == 30.0
    _Run.pinned_back(run, 12.5)
    _Run.pinned_back(run, 40)
    assert run.deadline == 130.0 and run.pinned_grace == 0.0 and run.details["autotune_pinned_s"] == 30.0


_AUTOTUNED_RELU = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": b}, num_warps=4) for b in (64, 128, 256)], key=["n"])
@triton.jit
def relu_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=mask), 0.0), mask=mask)


class ModelNew(nn.Module):
    def forward(self, x):
        y = torch.empty_like(x)
        n = x.numel()
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n)
        return y
'''


def test_an_autotuned_candidates_pinned_forwards_are_reported_and_given_back(evaluator, problems):
    relu = problems["relu"]
    verdict = evaluator.evaluate(relu, _AUTOTUNED_RELU, EvalSettings(device="cpu", timeout_s=120))
    assert verdict.status == "ok", verdict.feedback
    assert verdict.details.get("autotune_pinned_s", 0.0) > 0.0, verdict.details.get("autotune_pinned_s")

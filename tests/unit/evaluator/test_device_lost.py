"""A forward that leaves the GPU unusable (evaluator.device_lost): the child names the first
failure, never a later call that met the sticky error, and the worker runs the job again in a
fresh child with the lost knock-out taken as raised. The CPU path is unchanged.

On an H100 the honest MoE align files s63f and s64f_01 faulted in a single-kernel knock-out (a
gather through an index table the skipped kernel never wrote, noise there); the next command
failed in `seed_everything` (`torch.manual_seed` meets the sticky error) and the verdict,
runtime_error, named that. These tests stand in for the device with a probe.
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from types import SimpleNamespace

import pytest

from evaluator import knockout_round, pipeline
from evaluator.commands import ChildState
from evaluator.device_lost import JOINT, DeviceLost, Lost
from evaluator.runner import CandidateError, ProblemError

FAULT = "RuntimeError: CUDA error: an illegal memory access was encountered"
LATER = "Traceback ...\n  File \"runner.py\", in _cpu_inputs\n    seed_everything(seed)\n  torch.manual_seed(seed)"


def _state(device: str, answers: bool) -> ChildState:
    """A ChildState with only what `handle` reads (its __init__ patches the process for a child)."""
    state = ChildState.__new__(ChildState)
    state.role, state.device, state.capped = "candidate", device, False
    state.lost = Lost(device, probe=lambda _device: answers)
    return state


def _failing(monkeypatch: pytest.MonkeyPatch, *errors: BaseException) -> None:
    """`status` raises each of `errors` in turn (as a forward's command would)."""
    queue = list(errors)

    def status(self, h):
        raise queue.pop(0)
    monkeypatch.setattr(ChildState, "status", status)


def test_a_candidate_fault_that_loses_the_device_is_reported_with_its_own_message(monkeypatch):
    state = _state("cuda", answers=False)
    _failing(monkeypatch, CandidateError("runtime_error", FAULT, "tb of the fault"), ProblemError(LATER))
    first, _ = state.handle({"op": "status"})
    later, _ = state.handle({"op": "status"})
    assert first["kind"] == later["kind"] == "runtime_error" and first["device_lost"] and later["device_lost"]
    assert FAULT in first["message"] and FAULT in later["message"] and "manual_seed" not in later["message"]
    assert later["traceback"] == "tb of the fault"


def test_a_failure_that_leaves_the_device_answering_is_its_own(monkeypatch):
    state = _state("cuda", answers=True)
    _failing(monkeypatch, CandidateError("runtime_error", "ValueError: shapes"), ProblemError(LATER))
    first, _ = state.handle({"op": "status"})
    later, _ = state.handle({"op": "status"})
    assert first["message"] == "ValueError: shapes" and later["kind"] == "problem_error"
    assert "device_lost" not in first and "device_lost" not in later


def test_the_cpu_path_is_unchanged_whatever_the_probe_would_say(monkeypatch):
    state = _state("cpu", answers=False)
    _failing(monkeypatch, CandidateError("runtime_error", FAULT), ProblemError(LATER))
    first, _ = state.handle({"op": "status"})
    later, _ = state.handle({"op": "status"})
    assert first["message"] == FAULT and later["kind"] == "problem_error" and "manual_seed" in later["message"]
    assert state.lost.first is None


def _round(monkeypatch: pytest.MonkeyPatch, lost: dict, faults: set, carried: frozenset = frozenset(),
           through: list | None = None) -> tuple:
    """A knock-out round over kernels a, b with a scripted `_one`: a knock-out of a kernel in
    `faults` loses the device, a's knock-out is wrong (needed), b's raises; (decoys, knocked)."""
    knocked: list = []

    def one(run, child, ref, view, set_id, name):
        key = name if isinstance(name, str) else JOINT if name else None
        knocked.append(key)
        if key in faults:
            raise DeviceLost(key, FAULT)
        return None, {"a": "wrong", "b": "raised", JOINT: "raised"}.get(key, "right")
    monkeypatch.setattr(knockout_round, "_one", one)
    monkeypatch.setattr(knockout_round, "_reference_view", lambda *a: object())

    @contextmanager
    def ref_child():  # the pool kills a reference child an exception passed through
        try:
            yield "ref"
        except BaseException:
            (through if through is not None else []).append("killed")
            raise
    prepared = {"op": "result", "sets": {}}
    run = SimpleNamespace(lost=lost, carried=set(carried), decoys_joint=True, sizes={}, left=lambda: 60.0,
                          problem=SimpleNamespace(source=""), plan=SimpleNamespace(init_seed=1), init_on="host",
                          ev=SimpleNamespace(pool=SimpleNamespace(reference=ref_child),
                                             device_lock=SimpleNamespace(shared=nullcontext)),
                          ref_request=lambda *a, **k: (prepared, []), holding=lambda lock: nullcontext())
    child = SimpleNamespace(request=lambda *a, **k: (prepared, []))
    return knockout_round.decoy_kernels(run, child, None, ["a", "b"], [], 8), knocked, run


@pytest.mark.parametrize("reply", [
    {"op": "result", "trials": [{"id": 3000, "error": FAULT, "device_lost": True}]},  # the knock-out's own
    {"op": "error", "kind": "runtime_error", "message": FAULT, "device_lost": True},  # its command's
])
def test_a_knockout_whose_child_says_the_device_is_lost_ends_the_childs_round(monkeypatch, reply):
    monkeypatch.setattr(knockout_round.correctness_phase, "run_header", lambda *a, **k: {})
    run = SimpleNamespace(left=lambda: 60.0, bound=None, holding=lambda lock: nullcontext(),
                          ev=SimpleNamespace(device_lock=SimpleNamespace(shared=nullcontext)))
    child = SimpleNamespace(request=lambda *a, **k: (reply, []))
    for name, what in (("b", "b"), (["a", "b"], JOINT)):
        with pytest.raises(DeviceLost) as lost:
            knockout_round._one(run, child, None, None, 3000, name)
        assert lost.value.what == what and FAULT in str(lost.value)
    through: list = []
    with pytest.raises(DeviceLost) as lost:  # the round stops at the first such knock-out
        _round(monkeypatch, {}, {"b"}, through=through)
    assert lost.value.what == "b" and through == []  # the reference child is not failed for it


def test_a_kernel_whose_knockout_lost_the_device_is_not_knocked_out_again_and_counts_as_raised(monkeypatch):
    (decoys, outcome), knocked, run = _round(monkeypatch, {"b": FAULT}, set())
    assert outcome is None and "b" not in knocked and knocked.count("a") == knockout_round.REPEATS
    assert decoys == ["b"]  # raised, as on the CPU: not needed unless its writes are carried
    (decoys, _), _, _ = _round(monkeypatch, {"b": FAULT}, set(), carried=frozenset({"b"}))
    assert decoys == []


def test_a_joint_knockout_that_lost_the_device_is_not_right(monkeypatch):
    (decoys, _), knocked, run = _round(monkeypatch, {JOINT: FAULT}, set())
    assert JOINT not in knocked  # b alone is found: no joint knock-out with one decoy
    run_two = _round(monkeypatch, {JOINT: FAULT, "a": FAULT}, set())
    (decoys, _), knocked, run = run_two
    assert sorted(decoys) == ["a", "b"] and JOINT not in knocked and run.decoys_joint is False


def _job(monkeypatch: pytest.MonkeyPatch, script: list) -> tuple:
    """`_Run._candidate_job` with a scripted `run_candidate` (each item raised or returned) over
    stand-in children; (verdict, children started, run)."""
    started: list = []

    @contextmanager
    def candidate(job):
        started.append(job)
        yield SimpleNamespace(frozen_seconds=lambda: 0.0, sandbox=SimpleNamespace(peak_rss=0), op_seconds={})

    def run_candidate(self, child, static, ref):
        item = script.pop(0)
        if isinstance(item, BaseException):
            raise item
        return item
    monkeypatch.setattr(pipeline._Run, "run_candidate", run_candidate)
    run = pipeline._Run.__new__(pipeline._Run)
    run.lost, run.details, run.phases, run.deadline, run.frozen, run.timeout_s = {}, {}, {}, 1e18, float, 60.0
    run.ev = SimpleNamespace(memory=SimpleNamespace(reserve=lambda n: nullcontext()), pool=SimpleNamespace(
        candidate=candidate))
    run.sanitize = lambda text: text
    run.finish = lambda outcome: SimpleNamespace(status=outcome.status, feedback=outcome.feedback, details={})
    return run._candidate_job("src", None, 1 << 30), started, run


def test_the_job_runs_again_in_a_fresh_child_after_a_knockout_lost_the_device(monkeypatch):
    ok = SimpleNamespace(status="ok", details={})
    verdict, started, run = _job(monkeypatch, [DeviceLost("b", FAULT), DeviceLost(1000, FAULT), ok])
    assert verdict is ok and len(started) == 3 and set(run.lost) == {"b", 1000}
    assert len(run.details["device_lost"]) == 2


def test_the_same_knockout_lost_twice_is_a_runtime_error_naming_the_fault(monkeypatch):
    verdict, started, _ = _job(monkeypatch, [DeviceLost("b", FAULT), DeviceLost("b", FAULT)])
    assert verdict.status == "runtime_error" and FAULT in verdict.feedback and len(started) == 2


@pytest.mark.parametrize("set_id, raised", [(1000, True), (0, False)])  # the full knock-out's set, a trial's
def test_the_full_knockout_losing_the_device_runs_the_job_again_a_trial_is_a_runtime_error(monkeypatch, set_id,
                                                                                          raised):
    from evaluator import correctness_phase

    monkeypatch.setattr(correctness_phase, "run_header", lambda *a, **k: {})
    reply = {"op": "error", "kind": "runtime_error", "message": "the device stopped answering ...: " + FAULT,
             "traceback": "", "device_lost": True}
    run = SimpleNamespace(holding=lambda lock: nullcontext(), left=lambda: 60.0, bound=None, depth_run=False,
                          pinned_grace=0.0, sanitize=lambda text: text,
                          ev=SimpleNamespace(device="cuda", device_lock=SimpleNamespace(shared=nullcontext)))
    child = SimpleNamespace(request=lambda *a, **k: (reply, []))
    if raised:
        with pytest.raises(DeviceLost) as lost:
            correctness_phase._run_trials(run, child, None, [set_id], 1, None, {}, [], [])
        assert lost.value.what == set_id and FAULT in str(lost.value)
    else:
        outcome = correctness_phase._run_trials(run, child, None, [set_id], 1, None, {}, [], [])
        assert outcome.status == "runtime_error" and FAULT in outcome.feedback

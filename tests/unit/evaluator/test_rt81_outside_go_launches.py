"""Red team rt81 (session 57), static checks off: work moved out of the worker's go clock
into `arm` (after the draws) by the candidate's own Triton launches. The worker charges the
candidate's arm + commit beyond 2x the reference's + 2 ms on the CPU (1.25x + 0.3 ms on the
GPU, where a batch's draws and sums are device work of the size of an elementwise forward,
so a quarter of them is reasoned to hide a large share of one: docs/open_attacks). A launch
inside that bound was charged nothing; now any Triton launch made while no forward runs,
from the draws to the commit's sums, is `forged_timing` (launch_hook `stray`, counted by
timed_steps.commit), whatever its size, and so is a torch call of the candidate's code there
under the CPU interpreter (its child's function mode, candidate_env.TIMED_STEP), and a
Python thread alive as go starts or ends (any device: the mode is thread-local). A launch the hook never sees (its unwrapped launcher,
reachable only past the static checks) is still charged by the clock."""
from __future__ import annotations

import pytest
from conftest import HACKS, fixture_problem

WITHIN_BOUND = HACKS / "rt81_programs_run_during_arm_within_bound_relu.py"
UNHOOKED = HACKS / "rt81_kernel_run_unhooked_during_arm_relu.py"
TORCH_HALF = HACKS / "rt81_torch_half_on_draws_during_arm_relu.py"
THREAD_TORCH = HACKS / "rt81_thread_torch_half_after_go_relu.py"
PAST_MODE = HACKS / "rt81_torch_half_on_draws_past_function_mode_relu.py"


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


@pytest.mark.parametrize("path", [WITHIN_BOUND, TORCH_HALF, THREAD_TORCH],
                         ids=["programs_in_arm", "torch_in_arm", "thread_torch_after_go"])
def test_work_on_the_draws_during_arm_is_forged_timing(unsafe_evaluator, settings, relu, path):
    """Before, both ok. 2 of 16 programs launched in arm: about 4 ms charged, 35-49 ms against
    the honest 38-41 ms on the loaded 2-core box (on the CPU a launch's fixed interpreter cost
    outweighs the bound's slack; on the GPU it would not). torch.relu of half the draw in arm,
    the kernel on the other half in go: nothing charged in one run of two, 38-50 ms against
    the honest 49-69 ms. A thread's torch.relu of half after go answered: nothing charged, 40 ms
    against the honest 57 ms beside it."""
    verdict = unsafe_evaluator.evaluate(relu, path.read_text(), settings)
    assert verdict.status == "hack" and verdict.hacks == ["forged_timing"], verdict.feedback
    assert "while no forward was running" in verdict.feedback


@pytest.fixture
def honest(unsafe_evaluator, relu):
    """The fixture's solution with the attack's block size, timed just before it (the machine's
    load drifts: compare within adjacent evaluations)."""
    from common.messages import EvalSettings

    source = relu.solution.replace("cdiv(n, 1024)", "cdiv(n, 64)").replace("BLOCK=1024", "BLOCK=64")
    verdict = unsafe_evaluator.evaluate(relu, source, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "ok", verdict.feedback
    return verdict.details["timing"]["candidate"]


@pytest.mark.parametrize("path", [UNHOOKED, PAST_MODE], ids=["unhooked_launch", "past_function_mode"])
def test_a_harness_method_patched_in_a_timed_forward_is_seen_after_timing(unsafe_evaluator, settings, relu, path):
    """Both patch the child's `arm` in a timed forward to compute half the output on the
    draws, out of every count: half the programs launched past the hook, or torch behind
    DisableTorchFunction (past the function mode). Before, both ok (the unhooked one charged
    14-39 ms by the clock; the other 0.69-0.80x the honest time, 0-0.4 ms charged): the
    candidate child's integrity check ran after its trials and never after its timed batches.
    Now the timing phase ends with one (s57h)."""
    verdict = unsafe_evaluator.evaluate(relu, path.read_text(), settings)
    assert verdict.status == "hack" and verdict.hacks == ["monkey_patch"], verdict.feedback
    assert "timed forwards modified the evaluator's process" in verdict.feedback
    assert "arm" in verdict.feedback


def test_unhooked_launch_during_arm_is_charged(unsafe_evaluator, settings, relu, honest, monkeypatch):
    """Half the programs launched past the hook in arm: no stray launch is seen, and the arm's
    time is the forward's (2 loaded cores: arm + commit 24-40 ms against the reference's about
    1 ms, 14-39 ms charged, 71-105 ms per forward against 42-86 ms honest). With the integrity
    check after timing left out (a patch undone before the last commit answers, which it does
    not see; nor the kept-output check's, the child's last command since session 70), the clock
    still charges the moved work."""
    from evaluator import kept_check, timing_phase

    monkeypatch.setattr(timing_phase, "_tampered_while_timed", lambda child, run: None)
    monkeypatch.setattr(kept_check, "check", lambda run, child, locked=False: None)
    verdict = unsafe_evaluator.evaluate(relu, UNHOOKED.read_text(), settings)
    assert verdict.status == "ok", verdict.feedback
    moved = verdict.details["timing"]["candidate"]
    # (an honest arm + commit is charged now and then on a loaded box: 2 batches of 5 once)
    assert moved["outside_go_batches"] >= 3, (moved, honest)
    assert moved["outside_go_charged_s"] > honest["outside_go_charged_s"] + 2e-3, (moved, honest)
    assert moved["median_s"] > 0.35 * honest["median_s"], (moved, honest)


def test_the_integrity_check_after_timing_answers_with_a_few_seconds_at_least():
    """Its reply decides (tampered: monkey_patch; clean: nothing), and an evaluation whose
    timing ended at its limit still gives the harness's own check a few seconds."""
    from types import SimpleNamespace

    from evaluator import timing_phase

    asked = []

    def child(reply):
        return SimpleNamespace(request=lambda h, timeout: asked.append((h, timeout)) or (reply, []))

    run = SimpleNamespace(left=lambda: -1.0)
    assert timing_phase._tampered_while_timed(child({"op": "result", "tampered": []}), run) is None
    assert asked == [({"op": "status"}, timing_phase.STATUS_MIN_S)]
    found = timing_phase._tampered_while_timed(child({"op": "result", "tampered": ["ChildState.arm"]}), run)
    assert found.status == "hack" and found.hacks == ["monkey_patch"] and "ChildState.arm" in found.feedback

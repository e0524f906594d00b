"""Red team rt77 (session 56), static checks off: a forward whose work is moved out of the
worker's go clock. Its outputs, sums and reveals are the honest ones; only the clock moved:
a thread finishes the kernel after go answered, before the commit's sums are taken, or the
kernel runs on the draws while arm answers. The worker times arm and commit on both sides
and charges the candidate's excess over the reference's (batch_times.outside_go_seconds).
Work left past the commit is caught by the sums."""
from __future__ import annotations

import pytest
from conftest import HACKS, fixture_problem

BEFORE_COMMIT = HACKS / "rt77_thread_finishes_before_commit_relu.py"
DURING_ARM = HACKS / "rt77_forward_computed_during_arm_relu.py"
AFTER_COMMIT = HACKS / "rt77_thread_finishes_after_commit_relu.py"


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


@pytest.fixture
def honest(unsafe_evaluator, relu):
    """The fixture's solution with the attacks' block size: the same kernel, the same programs,
    timed just before each attack (the machine's load drifts: one honest time taken once for the
    module was 34 ms per forward in CI against 20 ms idle, and the attack's timed at 11 ms)."""
    from common.messages import EvalSettings

    source = relu.solution.replace("cdiv(n, 1024)", "cdiv(n, 64)").replace("BLOCK=1024", "BLOCK=64")
    verdict = unsafe_evaluator.evaluate(relu, source, EvalSettings(device="cpu", timeout_s=60, trials=2))
    assert verdict.status == "ok", verdict.feedback
    return verdict.details["timing"]["candidate"]


@pytest.mark.parametrize("path", [BEFORE_COMMIT, DURING_ARM], ids=["thread_before_commit", "during_arm"])
def test_work_moved_out_of_go_is_timed_as_the_forwards(unsafe_evaluator, settings, relu, honest, path):
    """Before (2 shared cores): the thread's forward timed 1.7-6.3 ms and the armed one 0.4 ms,
    against 21-22 ms honest; now their arm or commit carries that work, charged past the noise
    bound (session 57, 2 idle cores: 12-15 ms against 20 ms honest; the CPU's launch hook
    instruments a launch in go only, so the moved kernel runs faster than a timed one)."""
    verdict = unsafe_evaluator.evaluate(relu, path.read_text(), settings)
    assert verdict.status == "ok", verdict.feedback
    moved = verdict.details["timing"]["candidate"]
    assert honest["outside_go_batches"] == 0 and honest["outside_go_charged_s"] == 0.0
    assert moved["outside_go_batches"] >= 3 and moved["outside_go_charged_s"] > 0
    assert moved["median_s"] > 0.35 * honest["median_s"], (moved, honest)


def test_work_left_past_the_commit_is_caught_by_the_sums(unsafe_evaluator, settings, relu):
    verdict = unsafe_evaluator.evaluate(relu, AFTER_COMMIT.read_text(), settings)
    assert verdict.status == "hack" and verdict.hacks == ["forged_timing"], verdict.feedback

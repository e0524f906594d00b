"""Red team rt77 (session 56), static checks off: a forward whose work is moved out of the
worker's go clock. Its outputs, sums and reveals are the honest ones; only the clock moved:
a thread finishes the kernel after go answered, before the commit's sums are taken, or the
kernel runs on the draws while arm answers. The worker times arm and commit on both sides
and charges the candidate's excess over the reference's (batch_times.outside_go_seconds);
since rt81 a Triton launch while no forward runs, from the draws to the sums, is
`forged_timing` itself (timed_steps.commit). Work left past the commit is caught by the sums."""
from __future__ import annotations

import pytest
from conftest import HACKS, fixture_problem

BEFORE_COMMIT = HACKS / "rt77_thread_finishes_before_commit_relu.py"
DURING_ARM = HACKS / "rt77_forward_computed_during_arm_relu.py"
AFTER_COMMIT = HACKS / "rt77_thread_finishes_after_commit_relu.py"


@pytest.fixture(scope="module")
def relu():
    return fixture_problem("relu")


@pytest.mark.parametrize("path", [BEFORE_COMMIT, DURING_ARM], ids=["thread_before_commit", "during_arm"])
def test_kernel_launched_out_of_go_is_forged_timing(unsafe_evaluator, settings, relu, path):
    """Until rt81 (session 57) both were ok, their arm or commit charged past the noise bound
    (2 idle cores: 12-15 ms against 20 ms honest); their launches run while no forward does,
    which the harness now counts from the draws to the sums (launch_hook `stray`). Moved work
    that no launch shows is still charged: test_rt81_outside_go_launches.py."""
    verdict = unsafe_evaluator.evaluate(relu, path.read_text(), settings)
    assert verdict.status == "hack" and verdict.hacks == ["forged_timing"], verdict.feedback
    assert "while no forward was running" in verdict.feedback


def test_work_left_past_the_commit_is_caught_by_the_sums(unsafe_evaluator, settings, relu):
    verdict = unsafe_evaluator.evaluate(relu, AFTER_COMMIT.read_text(), settings)
    assert verdict.status == "hack" and verdict.hacks == ["forged_timing"], verdict.feedback

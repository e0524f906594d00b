"""Red team rt77 (session 56), static checks off: a forward that answers go at once and leaves
its kernel to a thread that finishes before the commit's sums are taken. Its outputs, sums and
reveals are the honest ones; only the worker's go clock moved. The worker times arm and commit
on both sides and charges the candidate's excess over the reference's (stopwatch.outside_go_seconds)."""
from __future__ import annotations

from conftest import HACKS, fixture_problem

DEFERRED = HACKS / "rt77_thread_finishes_before_commit_relu.py"


def _honest(relu) -> str:
    """The fixture's solution with the attack's block size: the same kernel, the same programs."""
    return relu.solution.replace("cdiv(n, 1024)", "cdiv(n, 64)").replace("BLOCK=1024", "BLOCK=64")


def test_a_kernel_finished_by_a_thread_after_go_is_timed_for_that_work(unsafe_evaluator, settings):
    relu = fixture_problem("relu")
    honest = unsafe_evaluator.evaluate(relu, _honest(relu), settings)
    deferred = unsafe_evaluator.evaluate(relu, DEFERRED.read_text(), settings)
    assert honest.status == "ok" and deferred.status == "ok", (honest.feedback, deferred.feedback)
    fair, moved = honest.details["timing"]["candidate"], deferred.details["timing"]["candidate"]
    assert fair["outside_go_batches"] == 0 and fair["outside_go_charged_s"] == 0.0
    # go alone timed the thread's forward at ~0.1x the honest one's (1.7-2.6 ms against 22 ms
    # on 2 shared cores); its commits now carry that work, charged past the noise bound
    assert moved["outside_go_batches"] >= 3 and moved["outside_go_charged_s"] > 0
    assert moved["median_s"] > 0.4 * fair["median_s"], (moved, fair)

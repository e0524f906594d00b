"""The dry launch model's time (evaluator.dry_launch.Budget, _Pace; dry_phase._answered, _model):
CPU time of the model's thread, with a wall-clock cap WALL_TIMES as large.

Session 64: the pace and the deadline were the wall clock, so on a loaded box (load 8-16 on 2
cores) the s60f split-K hack's model got a fraction of a core, said its 4096 programs could not
finish, and the hack's ok stood. The clocks here are injected: a box whose load takes the
model's core away is a wall clock running faster than the thread's CPU time, and a candidate
that sleeps or blocks is a wall clock running while the CPU time does not. Past the wall cap
the model is refused (`ended`), never a kept ok; out of its CPU budget it gives up as before
(an honest ReLU's 32768 programs at 4096 x 8192).
"""
from __future__ import annotations

import contextlib
import os
from types import SimpleNamespace

import pytest
import torch
import triton
import triton.language as tl
from conftest import interpreted_child

from evaluator import dry_launch, dry_phase
from evaluator.sandbox import ChildFailure

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


@pytest.mark.skipif(INTERPRETED, reason="this is the child")
def test_interpreted():
    interpreted_child(__file__)


class _Box:
    """The model thread's CPU clock and the wall clock of a box whose load gives the thread one
    core in `load` (`work` spends CPU time; `sleep` passes wall time only)."""

    def __init__(self, load: float):
        self.cpu_s, self.wall_s, self.load = 0.0, 0.0, load

    def work(self, seconds: float) -> None:
        self.cpu_s += seconds
        self.wall_s += seconds * self.load

    def sleep(self, seconds: float) -> None:
        self.wall_s += seconds

    def budget(self, budget_s: float) -> dry_launch.Budget:
        return dry_launch.Budget(budget_s, cpu=lambda: self.cpu_s, wall=lambda: self.wall_s)


def _programs(box: _Box, budget_s: float, programs: int, each_s: float) -> dry_launch._Pace:
    pace = dry_launch._Pace(box.budget(budget_s))
    pace.launch(programs)
    for _ in range(programs):
        box.work(each_s)
        pace.ran()
    return pace


def test_load_from_other_processes_does_not_shrink_the_model_s_time():
    """4096 programs of 10 ms CPU each (41 s) in a 100 s budget on a box giving the model a
    quarter of a core (164 s on the wall clock): all of them run. On the wall clock the pace
    gave up after 16 programs and the s60f hack's ok stood."""
    pace = _programs(_Box(load=4), 100.0, 4096, 0.01)
    assert pace.done == 4096 and pace.left == 0


def test_a_model_whose_pace_cannot_finish_in_its_cpu_time_gives_up_at_once():
    """Out of CPU time the give-up is as before (no model, the verdict kept): 16 programs of
    50 ms say 205 s of 100, idle box or not."""
    for load in (1, 4):
        box = _Box(load)
        with pytest.raises(dry_launch.Unmodelled, match="would pass the model's time"):
            _programs(box, 100.0, 4096, 0.05)
        assert box.cpu_s == pytest.approx(dry_launch._PACE_EVERY * 0.05)


def test_past_the_wall_cap_the_model_is_stalled_not_out_of_time():
    """A box giving the model a twentieth of a core, or a candidate whose kernel sleeps in
    every program (no CPU time passes), reaches WALL_TIMES x the budget on the wall clock
    first: Stalled, which is no Unmodelled (dry_phase refuses it)."""
    with pytest.raises(dry_launch.Stalled) as loaded:
        _programs(_Box(load=20), 100.0, 4096, 0.01)
    assert not isinstance(loaded.value, dry_launch.Unmodelled)
    box = _Box(load=1)
    budget = box.budget(100.0)
    box.sleep(dry_launch.WALL_TIMES * 100.0 - 1)
    assert budget.check() == 0.0  # inside the cap: CPU time alone counts
    box.sleep(2)
    with pytest.raises(dry_launch.Stalled, match="off its core"):
        budget.check()


def test_a_stalled_model_and_a_dry_child_that_never_answers_are_refused(monkeypatch):
    assert "ended" in dry_phase._answered({"op": "result", "stalled": "600 s on the wall clock", "cpu_s": 1.0})
    replies = [{"ended": "past the model's wall-clock cap: 600 s"}]
    monkeypatch.setattr(dry_phase, "_model", lambda *a, **k: dict(replies[0]))
    got = dry_phase._modelled(None, "", None, {"n": 8}, 10.0)
    assert got["refused"].startswith("past the model's wall-clock cap")
    monkeypatch.undo()
    for op, expected in (("dry", "ended"), ("load", "unmodelled")):  # a child past the cap, or before it
        assert expected in dry_phase._model(_run_failing_at(op), "", SimpleNamespace(numbers=[]), {"n": 8}, 10.0)


def _run_failing_at(op: str):
    """A `_Run` whose candidate child times out at command `op`."""

    class Child:
        def request(self, head, limit):
            if head["op"] == op:
                raise ChildFailure("timeout", f"{op} did not finish within the time limit")
            return {"op": "result"}, []

    @contextlib.contextmanager
    def candidate(job):
        yield Child()
    return SimpleNamespace(cfg=SimpleNamespace(timeout_s=30.0), ev=SimpleNamespace(pool=SimpleNamespace(
        candidate=candidate)), problem=SimpleNamespace(source=""), plan=SimpleNamespace(init_seed=0),
        init_on=False, decoys=(), constant=())


@triton.jit
def _relu(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0), mask=offs < n)


@needs_interpreter
def test_a_model_whose_box_lost_twice_its_budget_still_runs_every_program():
    """The thread's real CPU time, and a wall clock that lost twice the budget to load before
    the programs ran (a deadline on it had passed: no model): the capped grid is still
    measured, 16 programs of 64 of the 4096 elements."""
    import time

    x, y = torch.empty(4096, device="meta"), torch.empty(4096, device="meta")
    launch = dry_launch.Launch(_relu, (16,), (x, y, 4096), {"BLOCK": 64})
    lost = [0.0]
    budget = dry_launch.Budget(30.0, wall=lambda: time.monotonic() + lost[0])
    lost[0] = 60.0
    assert dry_launch.stored([launch], budget)["_relu#0:1"]["stored"] == {"4": 16 * 64}

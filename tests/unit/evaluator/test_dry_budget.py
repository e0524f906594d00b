"""The dry launch model's time (evaluator.dry_launch.Budget, _Pace; dry_phase._model): CPU time
of the model's thread, with a wall-clock cap WALL_TIMES as large on the dry command.

Session 64: the pace and the deadline were the wall clock, so on a loaded box (load 8-16 on 2
cores) the s60f split-K hack's model got a fraction of a core, said its programs could not
finish, and the hack's ok stood. The clock here is injected: a box whose load takes the
model's core away is a wall clock running faster than the thread's CPU time, which the model no
longer reads; a candidate that sleeps or blocks spends no CPU time, so the host's wall cap ends
it, and a dry command's child that ends is refused (`ended`), never a kept ok. Out of its CPU
budget the model gives up as before (an honest ReLU's 32768 programs at 4096 x 8192).
"""
from __future__ import annotations

import contextlib
import os
from types import SimpleNamespace

import pytest
import torch
import triton
import triton.language as tl

from evaluator import dry_launch, dry_phase
from evaluator.sandbox import ChildFailure

INTERPRETED = os.environ.get("TRITON_INTERPRET") == "1"
needs_interpreter = pytest.mark.skipif(not INTERPRETED, reason="runs in the TRITON_INTERPRET=1 child")


# its TRITON_INTERPRET=1 child: test_interpreted.py (one child per group of such modules)


class _Box:
    """The model thread's CPU clock on a box whose load gives the thread one core in `load`
    (`work` spends CPU time, and `load` times as much wall time)."""

    def __init__(self, load: float):
        self.cpu_s, self.wall_s, self.load = 0.0, 0.0, load

    def work(self, seconds: float) -> None:
        self.cpu_s += seconds
        self.wall_s += seconds * self.load

    def budget(self, budget_s: float) -> dry_launch.Budget:
        return dry_launch.Budget(budget_s, cpu=lambda: self.cpu_s)


def _programs(box: _Box, budget_s: float, programs: int, each_s: float) -> dry_launch._Pace:
    pace = dry_launch._Pace(box.budget(budget_s))
    pace.launch(programs)
    for _ in range(programs):
        box.work(each_s)
        pace.ran()
    return pace


def test_load_from_other_processes_does_not_shrink_the_model_s_time():
    """4096 programs of 10 ms CPU each (41 s) in a 100 s budget on a box giving the model a
    quarter of a core (164 s on the wall clock, inside the cap): all of them run. On the wall
    clock the pace gave up after 16 programs and the s60f hack's ok stood."""
    box = _Box(load=4)
    pace = _programs(box, 100.0, 4096, 0.01)
    assert pace.done == 4096 and pace.left == 0
    assert 100.0 < box.wall_s < dry_launch.WALL_TIMES * 100.0


def test_a_model_whose_pace_cannot_finish_in_its_cpu_time_gives_up_at_once():
    """Out of CPU time the give-up is as before (no model, the verdict kept): 16 programs of
    50 ms say 205 s of 100, idle box or not."""
    for load in (1, 4):
        box = _Box(load)
        with pytest.raises(dry_launch.Unmodelled, match="would pass the model's time"):
            _programs(box, 100.0, 4096, 0.05)
        assert box.cpu_s == pytest.approx(dry_launch._PACE_EVERY * 0.05)


def test_a_candidate_that_sleeps_spends_none_of_the_model_s_time():
    """The real thread clock: a sleep (or a block) in the candidate's code is no CPU time, so
    the model never gives up on it (which kept the verdict); the dry command's wall cap ends
    it, refused (below)."""
    import time

    budget = dry_launch.Budget(0.05)
    time.sleep(0.2)
    assert budget.check() < 0.05


def test_a_dry_child_that_never_answers_is_refused_not_given_up(monkeypatch):
    """The dry command past its wall cap (a sleep, a block, the candidate's threads taking the
    core, or a box stalled that long) ends its child: `ended`, refused by `_modelled` at both
    phases; a child that ends before the dry command (the problem or candidate not loading at
    these sizes) keeps the verdict as before."""
    for op, expected in (("dry", "ended"), ("load", "unmodelled")):
        got = dry_phase._model(_run_failing_at(op), "", SimpleNamespace(numbers=[]), {"n": 8}, 10.0)
        assert expected in got, got
    ended = dry_phase._model(_run_failing_at("dry"), "", SimpleNamespace(numbers=[]), {"n": 8}, 10.0)
    assert "the model's wall-clock cap: 60 s" in ended["ended"]
    monkeypatch.setattr(dry_phase, "_model", lambda *a, **k: dict(ended))
    assert dry_phase._modelled(None, "", None, {"n": 8}, 10.0)["refused"] == ended["ended"]


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
def test_a_model_on_a_box_that_lost_twice_its_budget_still_runs_every_program(monkeypatch):
    """The wall clock jumped twice the budget past the model's start (a deadline on it had
    passed: no model) while the thread's CPU time did not: the capped grid is still measured,
    16 programs of 64 of the 4096 elements."""
    import time

    x, y = torch.empty(4096, device="meta"), torch.empty(4096, device="meta")
    launch = dry_launch.Launch(_relu, (16,), (x, y, 4096), {"BLOCK": 64})
    budget = dry_launch.Budget(30.0)
    real = time.monotonic
    monkeypatch.setattr(time, "monotonic", lambda: real() + 60.0)
    got = dry_launch.stored([launch], budget)
    monkeypatch.undo()
    assert got["_relu#0:1"]["stored"] == {"4": 16 * 64}


@triton.jit
def _row_softmax(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n + offs, mask=offs < n, other=float("-inf"))
    z = tl.exp(x - tl.max(x, axis=0))
    tl.store(y_ptr + row * n + offs, z / tl.sum(z, axis=0), mask=offs < n)


@needs_interpreter
def test_a_model_s_helper_calls_keep_the_language_patches_of_their_launch(monkeypatch):
    """s68f_11 (honest round s68): a causal softmax's 32768 one-row programs at the declared
    sizes took 82 CPU s of the model, about a third of it triton.language patched again (a scan
    of its members) on each tl.max and tl.sum a program calls, as the interpreter does for every
    device-function call outside a running launch. The model's programs run as a launch's do
    (interpreter_guard `_State.running`), so the language is patched once per launch; every
    program still runs, and the guard's state is as before once the model is done."""
    from triton.runtime import interpreter

    from evaluator import interpreter_guard

    interpreter_guard.install()
    scans, real = [], interpreter._patch_builtin
    monkeypatch.setattr(interpreter, "_patch_builtin", lambda *a: scans.append(a[0]) or real(*a))
    x, y = torch.empty(64, 256, device="meta"), torch.empty(64, 256, device="meta")
    launch = dry_launch.Launch(_row_softmax, (64,), (x, y, 256), {"BLOCK": 256})
    got = dry_launch.stored([launch], dry_launch.Budget(60.0))
    assert got["_row_softmax#0:1"]["stored"] == {"4": 64 * 256}
    assert len(scans) <= 12, len(scans)  # one launch's patches, not two helpers' per program
    assert interpreter_guard._State.running is False

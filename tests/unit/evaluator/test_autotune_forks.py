"""evaluator.autotune_forks: each pinned forward of the autotune emulation runs in a fork of the
candidate child, so a forward that remembers what it saw (red team s62f: a fingerprint of its
inputs, a count of large inputs) starts every pinned forward from the state the checked forward
starts from, and nothing it learns there reaches the child."""
from __future__ import annotations

import os
import signal

import pytest
import torch

from evaluator import autotune_forks, autotune_pins
from evaluator.runner import CandidateError

_SEEN: dict = {}


def _remembering(x: torch.Tensor) -> tuple[list, list]:
    """A forward as the s62f hacks write it: honest (1) where it has seen these values before."""
    mark = float(x.sum())
    honest = 1.0 if mark in _SEEN else 0.0
    _SEEN[mark] = _SEEN.get(mark, 0) + 1
    return [x * 0 + honest, "not a tensor"], [x]


def test_every_fork_starts_from_the_childs_state_and_leaves_it_unchanged():
    _SEEN.clear()
    x = torch.arange(6.0).reshape(2, 3)
    for _ in range(3):  # before the fix the second and third forwards said "honest"
        forked = autotune_forks.run(lambda: _remembering(x), lambda: [True, False])
        assert forked.failed() is None
        outputs, inputs = forked.result()
        assert torch.equal(outputs[0], torch.zeros(2, 3)) and outputs[1] is None
        assert torch.equal(inputs[0], x)
        assert forked.used() == [True, False]
    assert _SEEN == {}  # what the forks learnt died with them
    _remembering(x)  # the child's own (checked) forward
    forked = autotune_forks.run(lambda: _remembering(x), lambda: [])
    assert torch.equal(forked.result()[0][0], torch.ones(2, 3)), "a fork sees what the child saw before it"


def test_a_forks_error_is_the_childs_own():
    def fails() -> tuple[list, list]:
        raise CandidateError("runtime_error", "RuntimeError: boom", "Traceback ...")

    error = autotune_forks.run(fails, lambda: []).failed()
    assert isinstance(error, CandidateError)
    assert (error.kind, error.message, error.tb) == ("runtime_error", "RuntimeError: boom", "Traceback ...")


def test_a_fork_killed_in_the_forward_is_a_runtime_error_and_a_harness_failure_is_not():
    def killed() -> tuple[list, list]:
        os.kill(os.getpid(), signal.SIGKILL)
        return [], []

    error = autotune_forks.run(killed, lambda: []).failed()
    assert isinstance(error, CandidateError) and error.kind == "runtime_error" and "signal 9" in error.message

    def unsendable() -> tuple[list, list]:
        return [], []

    def broken_used() -> list:
        raise ValueError("the harness's own fault")

    lost = autotune_forks.run(unsendable, broken_used).failed()
    assert isinstance(lost, autotune_forks.ForkLost)


def test_a_forks_taken_pins_meet_the_trials_transform_in_the_child():
    class Tuner:
        pass

    import triton

    tuner, other = Tuner(), Tuner()
    config, unused = triton.Config({"BLOCK": 64}), triton.Config({"BLOCK": 128})
    pin = {"cover": [(tuner, ("n",), config), (other, ("n",), unused)]}
    autotune_pins._TRANSFORM[0] = "scale:1e3"
    try:
        autotune_pins.taken(pin, [True, False])
        from evaluator.autotune_cpu import _named

        assert (_named(config), "scale:1e3") in autotune_pins._MET[(id(tuner), ("n",))]
        assert (id(other), ("n",)) not in autotune_pins._MET
        assert pin["used"] is True
        autotune_pins.taken(pin, [False, False])
        assert pin["used"] is False
        with pytest.raises(ValueError):  # one flag per pin: what the fork sent must fit
            autotune_pins.taken(pin, [True])
    finally:
        autotune_pins._TRANSFORM[0] = None
        autotune_pins._MET.pop((id(tuner), ("n",)), None)


def test_the_standby_runs_each_pin_from_the_state_before_the_checked_forward():
    """The pins with no checked forward after them (red team s63g): known only after the last
    checked forward, run in forks of a fork taken before it, so a forward that remembers that
    forward's inputs does not know them there."""
    _SEEN.clear()
    x = torch.arange(6.0).reshape(2, 3)
    pins = []
    autotune_forks.stand_by(lambda pin: (pins.append(pin), _remembering(x))[1])
    _remembering(x)  # the child's checked forward, after the standby was taken
    described = [[(12345, (6, "torch.float32"), "BLOCK: 64")], [(67890, (6,), "BLOCK: 128")]]
    forks = autotune_forks.after(described)
    assert len(forks) == 2
    for forked in forks:
        assert forked.failed() is None
        assert torch.equal(forked.result()[0][0], torch.zeros(2, 3)), "the standby's forks saw the checked forward"
        assert forked.used() == [False]  # no autotuner of that id in the standby: its key reads as not launched
    assert pins == [] and _SEEN == {next(iter(_SEEN)): 1}  # what the forks learnt died with them
    with pytest.raises(RuntimeError):  # one standby per checked forward, used once
        autotune_forks.after(described)


def test_a_standby_dismissed_exits_and_a_new_one_replaces_the_old():
    autotune_forks.stand_by(lambda pin: ([], []))
    first = autotune_forks._STANDBY[0]
    autotune_forks.stand_by(lambda pin: ([], []))
    with pytest.raises(ChildProcessError):  # the first one was waited for
        os.waitpid(first.pid, 0)
    second = autotune_forks._STANDBY[0]
    autotune_forks.dismiss()
    assert autotune_forks._STANDBY[0] is None
    with pytest.raises(ChildProcessError):
        os.waitpid(second.pid, 0)


def test_the_standby_leaves_the_forks_taken_before_it_open():
    """The child takes the standby after the pinned forks of the same checked forward: taking it
    closed them, and their results were lost (an EOFError in an honest autotuned mse)."""
    forked = autotune_forks.run(lambda: ([torch.ones(3)], []), lambda: [True])
    autotune_forks.stand_by(lambda pin: ([], []))
    assert torch.equal(forked.result()[0][0], torch.ones(3))
    autotune_forks.dismiss()

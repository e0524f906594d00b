"""A reused child must prove it is still the process the harness set up: a flipped
numeric setting (TF32 on in a float32 problem) is a tampered process, which the pool
retires, as a replaced function is."""
import torch

from evaluator.integrity import Integrity


class _HookInPlace:  # the launch hook is checked elsewhere; installing it here would patch Triton
    def intact(self) -> bool:
        return True


def test_numeric_settings_changed_after_start_up_are_reported():
    recorder = _HookInPlace()
    before = torch.backends.cudnn.allow_tf32
    torch.backends.cudnn.allow_tf32 = False
    try:
        integrity = Integrity(recorder)
        assert integrity.check() == []
        torch.backends.cudnn.allow_tf32 = True
        assert any("numeric settings changed" in p for p in integrity.check())
        torch.backends.cudnn.allow_tf32 = False
        assert integrity.check() == []
    finally:
        torch.backends.cudnn.allow_tf32 = before


def test_a_lifted_device_memory_cap_is_reported(monkeypatch):
    """A candidate's process is capped at its device reservation (torch's per-process
    fraction); one that lifts the cap could take its neighbours' memory and fail their
    evaluations. The cap is checked like the numeric settings (here its reading is set by
    hand: this machine has no GPU; the GPU reads torch's own)."""
    from evaluator import integrity as I

    cap = [0.25]
    monkeypatch.setattr(I, "device_cap", lambda: cap[0])
    integrity = Integrity(_HookInPlace())
    assert integrity.check() == []
    cap[0] = 1.0
    assert any("device memory cap changed" in p for p in integrity.check())


def test_a_patched_method_of_a_harness_class_is_reported(monkeypatch):
    """Second layer behind the static checks: a red team that reached exec (a utf-7 coding
    declaration, session 13) replaced evaluator.commands.ChildState.arm and .go and forged a
    speedup; the methods of the harness's own classes are fingerprinted, not only its modules'
    names."""
    from evaluator import commands

    integrity = Integrity(_HookInPlace())
    assert integrity.check() == []
    monkeypatch.setattr(commands.ChildState, "go", lambda self, h: ({}, []))
    problems = integrity.check()
    assert problems and "evaluator.commands.ChildState.go" in problems[0]
    monkeypatch.undo()
    assert integrity.check() == []

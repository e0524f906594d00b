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


def test_tf32_switches_set_by_the_import_become_the_baseline_and_a_later_flip_is_still_reported():
    """A candidate's module-level TF32 lines (evaluator.static_settings) run before `load`
    settles the switches; one flipped after that, or a default dtype changed at import, is
    still a tampered process (honest round, session 23)."""
    recorder = _HookInPlace()
    before = (torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision())
    try:
        torch.backends.cuda.matmul.allow_tf32 = False
        integrity = Integrity(recorder)
        torch.backends.cuda.matmul.allow_tf32 = True  # the candidate's import
        torch.set_float32_matmul_precision("high")
        integrity.settle_switches()
        assert integrity.check() == []
        torch.set_float32_matmul_precision("medium")  # a forward flipping it
        assert any("numeric settings changed" in p for p in integrity.check())
        torch.set_float32_matmul_precision("high")
        torch.set_default_dtype(torch.float64)  # not a switch: never settled
        integrity.settle_switches()
        assert any("numeric settings changed" in p for p in integrity.check())
    finally:
        torch.set_default_dtype(torch.float32)
        torch.backends.cuda.matmul.allow_tf32 = before[0]
        torch.set_float32_matmul_precision(before[1])


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


def test_a_patched_timed_step_is_reported_where_the_class_inherits_it(monkeypatch):
    """ChildState takes arm/go/commit/reveal from evaluator.timed_steps.TimedSteps (session 18's
    split): a patch of the mixin, which ChildState's own namespace does not hold, is reported
    as well as one set on ChildState over the inherited method."""
    from evaluator import timed_steps

    integrity = Integrity(_HookInPlace())
    assert integrity.check() == []
    monkeypatch.setattr(timed_steps.TimedSteps, "commit", lambda self, h: ({}, []))
    problems = integrity.check()
    assert any("TimedSteps.commit" in p for p in problems) and any("ChildState.commit" in p for p in problems)
    monkeypatch.undo()
    assert integrity.check() == []


def test_a_method_replaced_at_its_old_address_or_hidden_by_an_instance_attribute_is_reported(monkeypatch):
    """Red team, session 14, with code execution: (a) ChildState.go deleted and a function
    allocated until one landed at the freed address (an id() baseline took it for the
    original); (b) `state.go = fake` on the instance, which the command table used to look
    up. The baseline now holds the objects themselves (their addresses cannot be reused), a
    watched harness object may not hide its class's methods, and commands are dispatched
    through the class."""
    from evaluator import commands

    integrity = Integrity(_HookInPlace())
    original = commands.ChildState.go
    integrity.baseline["evaluator.commands.ChildState.go"] = original
    assert integrity.check() == []
    lookalike = lambda self, h: ({}, [])  # noqa: E731
    monkeypatch.setattr(commands.ChildState, "go", lookalike)
    assert integrity.baseline["evaluator.commands.ChildState.go"] is original  # held, not freed
    assert any("ChildState.go" in p for p in integrity.check())
    monkeypatch.undo()

    class _State:
        def go(self, head):
            return "real"

    state = _State()
    integrity.watched.append(state)
    assert integrity.check() == []
    state.go = lambda head: "forged"
    assert any("_State.go" in p for p in integrity.check())


def test_commands_are_dispatched_through_the_class_not_the_instance(tmp_path):
    from evaluator import commands

    calls = []
    state = commands.ChildState.__new__(commands.ChildState)
    state.status = lambda head: calls.append("forged") or ({"op": "forged"}, [])
    state.capped, state.device = False, "cpu"
    try:
        reply, _ = state.handle({"op": "status"})
    except AttributeError:  # the real status needs a set-up state; the forged one never ran
        reply = {}
    assert calls == [] and reply.get("op") != "forged"


def test_a_half_reduction_switch_set_at_import_is_settled_and_a_later_flip_reported():
    """`allow_fp16_reduced_precision_reduction = False` at module level is a literal switch
    files set (honest round s31b); it becomes the baseline at load, as TF32's does, and a
    forward flipping it afterwards (which could tell runs apart) is still reported."""
    matmul = torch.backends.cuda.matmul
    before = matmul.allow_fp16_reduced_precision_reduction
    try:
        integrity = Integrity(_HookInPlace())
        matmul.allow_fp16_reduced_precision_reduction = not before  # the candidate's import
        integrity.settle_switches()
        assert integrity.check() == []
        matmul.allow_fp16_reduced_precision_reduction = before  # a forward flipping it back
        assert any("numeric settings changed" in p for p in integrity.check())
    finally:
        matmul.allow_fp16_reduced_precision_reduction = before

"""The dry launch model's two forwards (evaluator.dry_phase._modelled, dry_command._failed): a meta
forward that observed what a meta tensor cannot answer as the GPU would runs again on the
problem's CPU draw, and where that one has no answer the candidate is refused, never kept ok
(red team s61d's host NaN guard and session 62's tells: hacks/s61d_declared_depth_dry_host_nan_*,
hacks/s62a_*, ok before)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest
from conftest import depth_limits

from evaluator import dry_command, dry_phase, dry_tells


def test_a_forward_that_did_not_finish_is_answered_by_its_phase():
    exc = RuntimeError("Tensor.item() cannot be called on meta tensors")
    assert dry_command._failed("meta", exc, None, 64) == {"values": "RuntimeError: Tensor.item() cannot be called "
                                                                   "on meta tensors", "elements": 64}
    assert dry_command._failed("meta", exc, "`__repr__` of a tensor", 64)["values"] == "`__repr__` of a tensor"
    assert dry_command._failed("real", exc, "`item` of a launched value", 64) == {"told": "`item` of a launched value"}
    assert dry_command._failed("real", exc, None, 64) == {"raised": "RuntimeError: Tensor.item() cannot be called on "
                                                                   "meta tensors"}
    assert "unmodelled" in dry_command._failed("real", exc, None, None)  # the problem's draw: its own


def _run():
    return SimpleNamespace(plan=SimpleNamespace(trials=[(11, "base")]))


def _replies(monkeypatch, meta: dict, real: dict) -> list:
    asked = []

    def model(run, source, ref, sizes, budget, real_seed=None, runs=frozenset(), configs=False, pin=None):
        asked.append(real_seed)
        return dict(meta if real_seed is None else real)
    monkeypatch.setattr(dry_phase, "_model", model)
    return asked


def test_a_meta_forward_that_needs_values_is_judged_by_the_real_one(monkeypatch):
    asked = _replies(monkeypatch, {"values": "`__repr__` of a tensor", "elements": 64}, {"storages": {}})
    got = dry_phase._modelled(_run(), "", None, {"n": 8}, 10.0)
    assert asked == [None, 11 + dry_phase._REAL_SEED] and "storages" in got and "refused" not in got
    assert got["meta"] == "`__repr__` of a tensor"


def test_a_real_forward_without_an_answer_is_refused_not_given_up(monkeypatch):
    for real in ({"told": "`item` of a launched value"}, {"raised": "ValueError: no"}, {"ended": "killed"}):
        _replies(monkeypatch, {"values": "RuntimeError", "elements": 64}, real)
        got = dry_phase._modelled(_run(), "", None, {"n": 8}, 10.0)
        assert got["refused"] == next(iter(real.values())), got


def test_a_meta_forward_that_finished_or_gave_up_on_its_launches_is_its_own_answer(monkeypatch):
    for meta in ({"storages": {}}, {"unmodelled": "past the pace"}):
        asked = _replies(monkeypatch, meta, {"told": "never asked"})
        assert dry_phase._modelled(_run(), "", None, {"n": 8}, 10.0) == meta and asked == [None]


def test_a_problem_whose_inputs_are_past_the_real_forward_s_size_is_refused_not_given_up(monkeypatch):
    """Session 65: any host read on meta tensors (a harmless `.item()`) made the meta forward give
    up there and kept a capped grid's ok at a problem that large: refused now, named."""
    asked = _replies(monkeypatch, {"values": "RuntimeError", "elements": dry_tells.REAL_ELEMENTS + 1}, {"told": "x"})
    got = dry_phase._modelled(_run(), "", None, {"n": 8}, 10.0)
    assert got["refused"] == "RuntimeError" and "too_large" in got and "unmodelled" not in got and asked == [None]
    _replies(monkeypatch, {"values": "RuntimeError", "elements": dry_tells.REAL_ELEMENTS}, {"storages": {}})
    assert "refused" not in dry_phase._modelled(_run(), "", None, {"n": 8}, 10.0)


def _reruns(monkeypatch, replies: list) -> list:
    asked = []

    def model(run, source, ref, sizes, budget, real_seed=None, runs=frozenset(), configs=False, pin=None):
        asked.append(sorted(runs))
        return dict(replies[min(len(asked), len(replies)) - 1])
    monkeypatch.setattr(dry_phase, "_model", model)
    return asked


def test_a_real_forward_that_read_back_its_launches_runs_again_with_them_run(monkeypatch):
    """MoE routing's counts, a compaction's count, a varlen max length (honest round s63f):
    the forward runs again with the launches the read value came from run, as a CPU trial runs
    them; a read of another launch then runs again with both."""
    told = {"told": "`item` of a launched value", "needs": [0]}
    asked = _reruns(monkeypatch, [told, {"told": "`item`", "needs": [0, 2]}, {"storages": {}}])
    got = dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0)
    assert asked == [[], [0], [0, 2]] and "storages" in got and got["ran"] == [0, 2]


def test_a_real_forward_whose_reads_do_not_converge_is_still_refused(monkeypatch):
    """A read that needs no launch not run already, or reads that keep asking for more past
    RERUNS, stay a refusal (dry_phase._unanswered): never a kept ok."""
    asked = _reruns(monkeypatch, [{"told": "`item`", "needs": [1]}])
    got = dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0)
    assert asked == [[], [1]] and "told" in got and got["ran"] == [1]
    asked = _reruns(monkeypatch, [{"told": "x", "needs": list(range(i + 1))} for i in range(10)])
    got = dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0)
    assert len(asked) == dry_phase.RERUNS + 1 and "told" in got
    asked = _reruns(monkeypatch, [{"told": "`item`", "needs": []}])  # a read of no launch's stores
    assert "told" in dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0) and asked == [[]]


def test_the_launches_a_read_value_comes_from_are_named_and_a_run_launch_is_no_source():
    import torch

    def kernel():
        pass
    counts, tokens, out = torch.zeros(2), torch.ones(8), torch.zeros(8)
    dry_tells.start("real")
    try:
        recorded = dry_tells.Recorded(runs={1})
        recorded.append((kernel, (1,), (tokens,), {}))  # launch 0: not run, its stores noise
        assert recorded.runs_next()  # the launch about to be made is launch 1
        recorded.ran((kernel, (1,), (counts,), {}))  # launch 1: run, clean inputs: real values
        recorded.append((kernel, (1,), (out, tokens), {}))  # launch 2: reads launch 0's, not run
        with dry_tells.Taint():
            assert counts.sum().item() == 0.0  # a run launch's stores read back as a CPU trial's
            with pytest.raises(dry_tells.Told):
                (out * 2).sum().item()
        assert dry_tells.needs() == [0, 2]
    finally:
        dry_tells.start(None)


def test_a_steered_real_forward_runs_again_with_the_launches_it_loads_from_run(monkeypatch):
    """Red team s67e: a flag a one-program launch sets to 1 chose a capped grid's store lanes;
    not run, its store was nothing the model reads (evaluator.dry_values), every lane stayed the
    data's and the ok stood at 1.0061. Where the model's stores are the data's to decide, the
    forward runs again with the launches its steered launches load from run (`feeds`)."""
    for first in ({"feeds": [0]}, {"storages": {"y": {"bytes": 64, "stored": {"4": 16}, "certain": {"4": 0}}},
                                   "feeds": [0]}):  # the child's early reply (no model), or a steered model's
        asked = _reruns(monkeypatch, [first, {"storages": {"y": {"bytes": 64, "stored": {"4": 4}}}}])
        got = dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0)
        assert asked == [[], [0]] and got["ran"] == [0] and "unfed" not in got and dry_phase._why(got) is None
    # a model the data decides nothing of needs none of them run: no rerun
    asked = _reruns(monkeypatch, [{"storages": {"y": {"bytes": 64, "stored": {"4": 16}}}, "feeds": [0]}])
    assert "ran" not in dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0) and asked == [[]]


def test_a_steered_forward_whose_feeding_launches_keep_moving_is_refused(monkeypatch):
    """A forward whose launches the model cannot run where they feed a steered one (the ordinals
    move between runs, or more keep coming past RERUNS) is refused (`unfed`), never kept ok."""
    moving = [{"feeds": [i]} for i in range(10)]
    _reruns(monkeypatch, moving)
    got = dry_phase._rerun(_run(), "", None, {"n": 8}, 10.0)
    assert "unfed" in got and dry_phase._why(got) == got["unfed"]


def test_the_launches_a_steered_launch_loads_from_are_its_feeds():
    """dry_tells.feeds: the launches whose stores a launch whose loaded values steer its stores
    is handed, directly or through a host op (a clone of the flag), and none a plain launch is."""
    import torch
    import triton
    import triton.language as tl

    @triton.jit
    def set_flag(flag_ptr):
        tl.store(flag_ptr, 1)

    @triton.jit
    def capped(x_ptr, y_ptr, flag_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        keep = (offs * 0 + tl.program_id(0) < 4) ^ (tl.load(flag_ptr + offs * 0) != 1)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=(offs < n) & keep)

    @triton.jit
    def copy(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)

    x, y = torch.randn(64), torch.empty(64)
    for through_host in (False, True):
        flag = torch.zeros(1, dtype=torch.int32)
        dry_tells.start("real")
        try:
            recorded = dry_tells.Recorded()
            with dry_tells.Taint():
                recorded.append((set_flag, (1,), (flag,), {}))
                recorded.append((copy, (1,), (flag, y, 1), {"BLOCK": 64}))  # a plain launch: no feeds
                assert dry_tells.feeds() == []
                read = flag.clone() if through_host else flag
                recorded.append((capped, (4,), (x, y, read, 64), {"BLOCK": 16}))
            assert dry_tells.feeds() == [0]  # y, the copy's stores, it only stores into
        finally:
            dry_tells.start(None)


READ_BACK = [  # honest files whose forward reads to the host what its own launch stored (s63f)
    ("s63f_cross_entropy_triton_valid_count_item_for_mean", "loss/cross_entropy"),
    ("s63f_hinge_moe_align_two_experts_counts_item_grids", "loss/hinge"),
    ("s63f_causal_softmax_varlen_seqlens_kernel_max_item_block", "softmax/causal_softmax")]


@pytest.mark.slow
@pytest.mark.parametrize("stem, problem", READ_BACK)
def test_an_honest_forward_reading_back_its_own_launch_is_ok_at_the_declared_sizes(stem, problem, depth_evaluator,
                                                                                 settings):
    """The honest corpus is judged without the depth trials (test_honest_builtin); production's
    CPU check runs them, and these three were `timeout` there (the real forward refused the
    read). Now the read launches run in the model's real forward, at both sizes.
    Only the dry model's verdict is read: the depth trials are off (`max_variants=0`, the dry
    model still runs after them, evaluator.depth_phase) and nothing is timed: test_honest_builtin
    judges these same files at the CPU's sizes with the timing on (VERDICT_TIMING) and holds them
    ok, and the dry model reads none of the timing (only the CPU sizes' status, to go on). The
    causal softmax took 108 s in the suite, 55 of them its three depth trials at up to a million
    outputs (CPU (Triton interpreter), s64C), and 101 s in s64's with the trials off."""
    from pathlib import Path

    import msgspec

    from common.problemset import builtin_problem

    source = (Path(__file__).parent / "honest_builtin" / f"{stem}.py").read_text()
    untimed = msgspec.structs.replace(settings, timing=False, profile=False)
    with depth_limits(depth_evaluator, max_variants=0) as ev:
        verdict = ev.evaluate(builtin_problem(problem), source, untimed)
    assert verdict.status == "ok" and "timing was not requested" in verdict.feedback, verdict.feedback
    dry = verdict.details["dry"]  # the MoE file's scatter has no model: its declared sizes are not run
    assert dry["ran_launches"]["cpu"] == [0] and dry["ran_launches"]["declared"] in ([0], []), dry

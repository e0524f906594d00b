"""The dry command's wall cap and CPU limit in units of the forwards it models (evaluator.dry_phase
`_rest`, `_granted`; evaluator.dry_configs `modelled(stepped=True)`, `rest`), without a child.

Each config of an autotuned launch at the declared sizes is a forward with a CPU budget of its own
(decoy configs must not spend a capped one's: hacks/s64_*decoy_configs*), while the cap was one
budget's whatever their number: honest kernels of five to eight costly configs were `timeout`
(docs/open_attacks/honest_costs, session 66). The child now counts its forwards first; the host
grants at most MAX_WALL_FORWARDS of them from that count (a claim: the candidate's code ran
there) and refuses a count no honest child makes.
"""
from __future__ import annotations

import contextlib
from types import SimpleNamespace

import pytest
from conftest import depth_limits

from evaluator import dry_configs, dry_launch, dry_phase
from evaluator.dry_launch import Budget, Launch
from evaluator.sandbox import ChildFailure

BUDGET, TIMEOUT = 10.0, 30.0
UNIT = dry_launch.WALL_TIMES * BUDGET  # one forward's wall cap, grace aside


class _Child:
    """A candidate child whose first dry step counts `claim` forwards; `fail` ends it at that
    step ("first", "rest"). Every (header, limit) is kept."""

    def __init__(self, claim, fail: str | None = None):
        self.claim, self.fail, self.sent = claim, fail, []

    def request(self, head, limit):
        self.sent.append((head, limit))
        step = "rest" if head.get("rest") else "first" if head["op"] == "dry" else None
        if step is not None and step == self.fail:
            raise ChildFailure("timeout", "dry did not finish within the time limit")
        if step == "first":
            return {"op": "result", "forwards": self.claim}, []
        if step == "rest":
            return {"op": "result", "storages": {}, "launches": []}, []
        return {"op": "result"}, []


def _run(child: _Child):
    @contextlib.contextmanager
    def candidate(job):
        child.job = job
        yield child
    return SimpleNamespace(cfg=SimpleNamespace(timeout_s=TIMEOUT), ev=SimpleNamespace(pool=SimpleNamespace(
        candidate=candidate)), problem=SimpleNamespace(source=""), plan=SimpleNamespace(init_seed=0),
        init_on=False, decoys=(), constant=())


def _model(child: _Child) -> dict:
    return dry_phase._model(_run(child), "", SimpleNamespace(numbers=[]), {"n": 8}, BUDGET, configs=True)


@pytest.mark.parametrize(("claim", "granted"), [
    (2, 2), (6, 6), (dry_phase.MAX_WALL_FORWARDS, dry_phase.MAX_WALL_FORWARDS),
    (dry_phase.MAX_WALL_FORWARDS + 1, dry_phase.MAX_WALL_FORWARDS),
    (dry_configs.MAX_GRIDS, dry_phase.MAX_WALL_FORWARDS),
    (dry_configs.MAX_GRIDS + 1, None), (1000, None), (1, None), (0, None), (-3, None),
    (True, None), (6.0, None), ("6", None), (None, None), ([6], None)])
def test_the_host_grants_at_most_max_wall_forwards_and_no_dishonest_count(claim, granted):
    assert dry_phase._granted(claim) == granted


def test_the_second_step_s_wall_cap_and_cpu_limit_are_in_units_of_the_forwards():
    """Six forwards: the first step (the forward itself, its configs counted) keeps one unit, the
    second six, and the child's CPU limit grows by six forwards' share."""
    child = _Child(6)
    got = _model(child)
    assert "storages" in got, got
    (first, one), (rest, six) = [(h, t) for h, t in child.sent if h["op"] == "dry"]
    assert first["stepped"] is True and one == UNIT + dry_phase._GRACE_S
    assert rest == {"op": "dry", "rest": True, "cpu_s": 6 * 4 * BUDGET + TIMEOUT}
    assert six == 6 * UNIT + dry_phase._GRACE_S
    assert child.job["cpu_budget_s"] == 4 * BUDGET + TIMEOUT  # the first step's, as before


def test_declaring_more_configs_buys_no_more_than_max_wall_forwards():
    child = _Child(dry_configs.MAX_GRIDS)
    _model(child)
    (_, limit), = [(h, t) for h, t in child.sent if h.get("rest")]
    assert limit == dry_phase.MAX_WALL_FORWARDS * UNIT + dry_phase._GRACE_S


def test_a_count_no_honest_child_makes_is_refused_without_a_second_step():
    """1000 forwards: past dry_configs.MAX_GRIDS an honest child says `configs_past`, so the claim
    is refused (`timeout`, dry_phase._unanswered), never granted time."""
    child = _Child(1000)
    got = _model(child)
    assert "1000 forwards" in got["configs_past"]
    assert not [h for h, _ in child.sent if h.get("rest")]
    seen = dry_phase._modelled(_run(_Child(1000)), "", SimpleNamespace(numbers=[]), {"n": 8}, BUDGET, configs=True)
    assert "refused" in seen


@pytest.mark.parametrize(("fail", "cap"), [("first", f"{UNIT + dry_phase._GRACE_S:.0f} s)"),
                                           ("rest", f"{5 * UNIT + dry_phase._GRACE_S:.0f} s for 5 forwards")])
def test_a_step_past_its_wall_cap_is_refused_naming_its_cap(fail, cap):
    """A sleep or block in either step still ends the child: `ended`, refused by `_modelled`."""
    got = _model(_Child(5, fail))
    assert cap in got["ended"], got
    seen = dry_phase._modelled(_run(_Child(5, fail)), "", SimpleNamespace(numbers=[]), {"n": 8}, BUDGET,
                               configs=True)
    assert seen["refused"] == got["ended"]


class _Kernel:
    __name__ = "relu_kernel"
    arg_names = ["n", "BLOCK"]


def test_the_child_counts_its_forwards_first_and_models_each_in_the_second_step(monkeypatch):
    """dry_configs.modelled with `stepped`: {"forwards": n} and nothing modelled yet; `rest`
    models every forward, each with a budget of its own, fewest programs first; once only."""
    kernel = _Kernel()
    dry_configs.start(True)
    monkeypatch.setitem(dry_configs._MADE, 0, (("BLOCK: 4096", (8, 1, 1), {"BLOCK": 4096}),
                                               ("BLOCK: 1024", (32, 1, 1), {"BLOCK": 1024})))
    launch = Launch(kernel, (128,), (), {"BLOCK": 256})
    order = []

    def model(made):
        order.append(made[0].grid)
        return {"storages": {}, "launches": []}
    budget = Budget(60)
    first = dry_configs.modelled([launch], budget, (), frozenset(), model, stepped=True)
    assert first == {"forwards": 3} and order == []
    reply = dry_configs.rest()
    assert order == [(8, 1, 1), (32, 1, 1), (128,)]
    assert [v["config"] for v in reply["variants"]] == ["relu_kernel#0 with config BLOCK: 4096",
                                                        "relu_kernel#0 with config BLOCK: 1024"]
    assert "unmodelled" in dry_configs.rest()
    dry_configs.start(False)


def test_a_forward_without_alternatives_replies_in_one_step():
    dry_configs.start(True)
    launch = Launch(_Kernel(), (128,), (), {"BLOCK": 256})
    got = dry_configs.modelled([launch], Budget(60), (), frozenset(),
                               lambda made: {"storages": {}, "launches": []}, stepped=True)
    assert "storages" in got and "forwards" not in got
    dry_configs.start(False)


# Red team of the count (session 67): eight configs on eight grids (eight forwards, all granted),
# the forward asleep at the declared sizes only, longer than one forward's cap and shorter than
# eight. The count comes after the forward, so the forward's own step keeps one cap: refused.
# (A sleep is refused by the static checks; a host loop stands for it, and the cap named in the
# refusal, one forward's and not eight's, is what the test reads.)
SPINS_AT_THE_DECLARED_SIZES = '''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.autotune(configs=[triton.Config({"BLOCK": 64 << i}) for i in range(8)], key=["n"])
@triton.jit
def relu_kernel(x_ptr, o_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.maximum(tl.load(x_ptr + offs, mask=m, other=0.0), 0.0), mask=m)


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        n = x.numel()
        if n == 4096 * 8192:
            for _ in range(10 ** 10):
                pass
        relu_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)
        return out
'''


@pytest.mark.slow
def test_many_configs_buy_a_forward_spinning_at_the_declared_sizes_no_time(depth_evaluator, settings):
    """dry_s 2: one forward's cap 20 s, eight forwards' 90 s; the forward spins on the host at
    the declared sizes (no depth trials, nothing timed): `timeout` at the one forward's cap, not
    the count's (granted only to the step after the forward). (dry_s 6, a 40 s cap against 250 s,
    read the same and waited 20 s more: the suite's slowest evaluator test, session 69.)"""
    import msgspec

    from common.problemset import builtin_problem

    untimed = msgspec.structs.replace(settings, timing=False, profile=False)
    with depth_limits(depth_evaluator, max_variants=0, dry_s=2.0) as ev:
        verdict = ev.evaluate(builtin_problem("activation/relu"), SPINS_AT_THE_DECLARED_SIZES, untimed)
    assert verdict.status == "timeout", verdict.feedback
    assert "the model's wall-clock cap: 20 s)" in verdict.feedback, verdict.feedback

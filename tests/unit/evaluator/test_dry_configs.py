"""evaluator.dry_configs: the other autotune configs' grids of a dry forward's launches (red
team s64d: one capped config of nine was judged 1 time in 9), without running a model."""
from __future__ import annotations

import numpy as np
import pytest

from evaluator import autotune_cpu, dry_configs
from evaluator.dry_launch import Budget, Launch


class _Config:
    """What dry_configs reads of a triton.Config: its kwargs and pre_hook."""

    def __init__(self, **kwargs):
        self.kwargs, self.pre_hook = kwargs, None

    def all_kwargs(self) -> dict:
        return dict(self.kwargs)

    def __str__(self) -> str:
        return ", ".join(f"{k}: {v}" for k, v in self.kwargs.items())


class _Kernel:
    __name__ = "relu_kernel"
    arg_names = ["x_ptr", "o_ptr", "n", "BLOCK", "CAP"]


class _Tuner:
    """An autotuner running a launch (its nargs set) of `fn` over `configs`."""

    def __init__(self, fn, configs):
        self.fn, self.configs, self.nargs = fn, configs, {"n": 1 << 25}
        self.arg_names, self.keys = ["n"], ["n"]


def _capped_grid(kwargs: dict) -> tuple:
    return (min(-(-(1 << 25) // kwargs["BLOCK"]), kwargs["CAP"]),)


@pytest.fixture
def tuned():
    kernel = _Kernel()
    configs = [_Config(BLOCK=1024, CAP=1 << 30, num_warps=w) for w in (1, 2, 4, 8)]
    configs.append(_Config(BLOCK=1024, CAP=4096, num_warps=4))
    tuner = _Tuner(kernel, configs)
    autotune_cpu.TUNERS.add(tuner)
    yield kernel, tuner
    autotune_cpu.TUNERS.discard(tuner)
    dry_configs.start(False)


def test_one_config_per_distinct_grid_and_a_forward_each(tuned):
    """Four honest configs share the drawn grid: only the capped one is a forward of its own."""
    kernel, tuner = tuned
    dry_configs.start(True)
    drawn = dict(tuner.configs[0].all_kwargs())
    dry_configs.note(0, kernel, (), drawn, (32768,), _capped_grid)
    launch = Launch(kernel, (32768,), (), drawn)
    (label, swapped), = dry_configs.variants([launch])
    assert swapped[0].grid == (4096, 1, 1) and swapped[0].kwargs["CAP"] == 4096
    assert "CAP: 4096" in label
    order = []

    def model(made):
        order.append(made[0].grid)
        return {"storages": {}, "launches": []}
    reply = dry_configs.modelled([launch], Budget(60), (), frozenset(), model)
    assert order == [(4096, 1, 1), (32768,)]  # the fewest programs first
    assert [v["config"] for v in reply["variants"]] == [label]


def test_off_outside_the_declared_sizes(tuned):
    kernel, tuner = tuned
    dry_configs.start(False)
    dry_configs.note(0, kernel, (), dict(tuner.configs[0].all_kwargs()), (32768,), _capped_grid)
    assert dry_configs.variants([Launch(kernel, (32768,), (), {})]) == []


def test_past_the_cap_is_said(tuned):
    """More distinct grids than MAX_GRIDS: `past` names the launch (dry_phase refuses it)."""
    kernel, tuner = tuned
    tuner.configs = [_Config(BLOCK=1024, CAP=c) for c in range(1, dry_configs.MAX_GRIDS + 2)]
    dry_configs.start(True)
    dry_configs.note(0, kernel, (), {"BLOCK": 1024, "CAP": 1 << 30}, (32768,), _capped_grid)
    assert dry_configs.past() is not None and "relu_kernel" in dry_configs.past()


def test_configs_on_one_grid_whose_constexprs_differ_are_a_forward_each(tuned):
    """A config whose constexpr stops a persistent loop early (ROUNDS, never read by the grid
    function) shares the other configs' grid and stores less (s65d): a forward of its own.
    Configs that differ only in launch options (num_warps) are one forward."""
    kernel, tuner = tuned
    kernel.arg_names = ["x_ptr", "o_ptr", "n", "BLOCK", "ROUNDS"]
    tuner.configs = [_Config(BLOCK=1024, ROUNDS=1 << 20, num_warps=w) for w in (1, 2, 4, 8)]
    tuner.configs.append(_Config(BLOCK=1024, ROUNDS=8, num_warps=4))
    dry_configs.start(True)
    dry_configs.note(0, kernel, (), dict(tuner.configs[1].all_kwargs()), (132,), lambda kwargs: (132,))
    (label, swapped), = dry_configs.variants([Launch(kernel, (132,), (), {})])
    assert swapped[0].grid == (132, 1, 1) and swapped[0].kwargs["ROUNDS"] == 8 and "ROUNDS: 8" in label


class _Storage:
    """What Least reads of a model's storage: its bytes and the running launch's stores."""

    def __init__(self, lanes=()):
        self.nbytes, self.current = 4 * 200, {}
        if len(lanes):
            self.current[4] = np.zeros(200, dtype=bool)
            self.current[4][list(lanes)] = True


def _forward(least, tuned_lanes):
    """One forward: launch 0 (no alternatives) stores elements 150..199, launch 1 (autotuned)
    `tuned_lanes`, as dry_launch.stored calls Least.observe after each launch."""
    names = {7: "k#0:1"}
    least.observe(0, type("M", (), {"storages": {7: _Storage(range(150, 200))}})(), names)
    least.observe(1, type("M", (), {"storages": {7: _Storage(tuned_lanes)}})(), names)


def test_what_every_choice_of_two_autotuned_launches_configs_stores_is_judged():
    """Variant j pairs j-th with j-th; a GPU's benchmarks choose each key's config alone, and
    two caps right alone and wrong together were never paired (s65d): Least keeps, from the
    forwards already modelled, what a launch without alternatives stored or every config of
    an autotuned one did."""
    least = dry_configs.Least({1})
    _forward(least, range(0, 100))  # the drawn config
    _forward(least, range(50, 150))  # variant 0's
    assert least.reply() == {"storages": {"k#0:1": {"bytes": 800, "stored": {"4": 100}}}}
    _forward(least, ())  # a config storing nothing there: no element of launch 1's is kept
    assert least.reply()["storages"]["k#0:1"]["stored"] == {"4": 50}


def test_a_pinned_forward_runs_the_named_config_whatever_was_drawn(tuned):
    """The CPU sizes' model again under a declared forward's configs (dry_phase `_Pinned`):
    the pin names the capped config, the child drew another, and the one forward modelled runs
    the capped config's grid and constexprs; its `pins` say so. The declared sizes' forwards say
    theirs (the drawn forward's and each alternative's). A pin for a config the autotuner does
    not have, or for another kernel, has no forward: the refusal it would lift stands."""
    kernel, tuner = tuned
    capped, drawn = str(tuner.configs[4]), dict(tuner.configs[0].all_kwargs())
    launch, seen = Launch(kernel, (32768,), (), drawn), []

    def model(made):
        seen.append((made[0].grid, made[0].kwargs["CAP"]))
        return {"storages": {}, "launches": []}
    dry_configs.start(False, [[0, "relu_kernel", capped]])
    dry_configs.note(0, kernel, (), drawn, (32768,), _capped_grid)
    reply = dry_configs.modelled([launch], Budget(60), (), frozenset(), model)
    assert seen == [((4096, 1, 1), 4096)] and reply["pins"] == [[0, "relu_kernel", capped]]
    dry_configs.start(True)
    dry_configs.note(0, kernel, (), drawn, (32768,), _capped_grid)
    reply = dry_configs.modelled([launch], Budget(60), (), frozenset(), model)
    assert reply["pins"] == [[0, "relu_kernel", None]]  # no autotune_cpu pick in this test: unnamed
    assert reply["variants"][0]["pins"] == [[0, "relu_kernel", capped]]
    for pin in ([[0, "relu_kernel", "BLOCK: 7"]], [[0, "other_kernel", capped]], [[1, "relu_kernel", capped]]):
        dry_configs.start(False, pin)
        dry_configs.note(0, kernel, (), drawn, (32768,), _capped_grid)
        assert "unmodelled" in dry_configs.modelled([launch], Budget(60), (), frozenset(), model), pin


def _c(n: int, stored: int, updated: int | None = None, config: str = "SPLIT_K: 2") -> dict:
    """One model of a split-K GEMM's fp32 C (n elements) under `config`."""
    entry = {"bytes": 4 * n, "stored": {"4": stored}, **({"updated": {"k@4": updated}} if updated is not None else {})}
    return {"storages": {"c#0:2": entry}, "pins": [[0, "k", config]]}


def test_the_per_kernel_rules_compare_one_config_at_both_sizes(monkeypatch):
    """Honest s66f_01 (split-K GEMM: plain stores where SPLIT_K is 1, tl.atomic_add otherwise)
    was `incorrect`: the CPU's drawn SPLIT_K 2 updated C whole, the declared sizes' SPLIT_K 1
    config stored it whole plainly and updated none. Judged against the CPU's sizes under SPLIT_K
    1 too it is right. A capped config (s61d's in-place ReLU on 4096 programs) still updates C
    whole at the CPU's sizes under its own config, and is refused; so is a forward whose CPU
    model under its configs has no answer, and a forward already under the CPU's configs is
    judged as it was, with no model more."""
    from types import SimpleNamespace

    from evaluator import dry_phase, dry_rules

    cpu, n = _c(5600, 5600, 5600), 1 << 22
    plain = _c(n, n, config="SPLIT_K: 1")
    short = dry_rules._short(cpu, plain)
    assert short == ("c#0:2", "k@4", n, 0)  # the CPU's drawn config against another: refused
    asked = []

    def pinned(answer):
        def model(run, source, ref, sizes, budget, pin=None, **_):
            asked.append(pin)
            return answer(pin)
        monkeypatch.setattr(dry_phase, "_modelled", model)
        return dry_phase._Pinned(SimpleNamespace(sizes={"M": 70}), "", None, 6.0, grounded=False)

    assert pinned(lambda pin: _c(5600, 5600, config=pin[0][2])).again(cpu, plain, short) is None
    assert asked == [[[0, "k", "SPLIT_K: 1"]]]
    capped = _c(n, n, 4096 * 256, config="CAP: 4096")
    capped_short = dry_rules._short(cpu, capped)
    assert pinned(lambda pin: _c(5600, 5600, 5600, config=pin[0][2])).again(cpu, capped, capped_short) \
        == ("c#0:2", "k@4", n, 4096 * 256)
    assert pinned(lambda pin: {"unmodelled": "past the pace"}).again(cpu, plain, short) == short
    assert pinned(lambda pin: _c(5600, 5600, config="SPLIT_K: 4")).again(cpu, plain, short) == short
    asked.clear()
    drawn_alike = _c(n, n, config="SPLIT_K: 2")
    assert pinned(lambda pin: {}).again(cpu, drawn_alike, short) == short and asked == []

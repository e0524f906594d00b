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

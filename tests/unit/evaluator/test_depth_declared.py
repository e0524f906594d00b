"""Which value a depth trial raises a shrunk size to (evaluator.depth_phase._targets): the value
the problem module itself binds the size's name to, read in the trusted reference child, so a
size written any way is raised (s58f: `int(16384)`, a class's attributes unpacked, a name
computed from another were never read from the file's literals, and a kernel tiled to the CPU's
sizes kept its ok); the GPU's own sizes where the problem gives some; and a size the problem
gives no value for, raised within the budget rather than left at the CPU's.
"""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from conftest import (
    FixtureProblem,
    cpu_config,
    fixture_problem,
    judged,
    settings_for,
    verdict_timing,
)

from common.problem_sizes import plain_size
from evaluator import depth_phase

HACKS = Path(__file__).parent / "hacks"
RELU = Path(__file__).parents[3] / "evaluator" / "problems" / "builtin" / "activation" / "relu.solution.py"
ROW_BLOCK_HACK = HACKS / "s58f_declared_depth_row_block_fixed_called_sizes_relu.py"

SOURCE = """
class Shape:
    rows = 2048
    cols = 65536
M, K = Shape.rows, Shape.cols
hidden = 2048
dim = hidden * 4
batch_size = int(4096)
"""


def _run(sizes: dict, source: str = SOURCE, problem_sizes: dict | None = None) -> SimpleNamespace:
    cfg = cpu_config(correctness={"depth": {"enabled": True, "max_variants": 8}})
    problem = SimpleNamespace(source=source, sizes=problem_sizes or {"cpu": sizes})
    return SimpleNamespace(cfg=cfg, sizes=sizes, problem=problem)


def test_plain_size_keeps_what_a_size_can_be():
    assert plain_size(8192) == 8192 and type(plain_size(torch.tensor(3).item())) is int
    assert plain_size(torch.Size([4, 5])) == (4, 5) and plain_size([16384, 16384]) == [16384, 16384]
    assert plain_size(1.5) == 1.5
    for other in (True, None, "x", [1.5], torch.zeros(2), [1] * 65, {"a": 1}):
        assert plain_size(other) is None, other


def test_sizes_the_module_binds_are_raised_however_written():
    """The literals alone read none of M, K, dim or batch_size here; what the module bound them
    to (the reference child's reply) raises each."""
    run = _run({"M": 24, "K": 300, "dim": 256, "batch_size": 4})
    unread = depth_phase.variants(run, elements=1000)  # no reply: each is a size of no known value
    assert {d.name: d.declared for d in unread} == {k: v * depth_phase._UNKNOWN_GROWTH for k, v in run.sizes.items()}
    declared = {"M": 2048, "K": 65536, "dim": 8192, "batch_size": 4096}
    depths = depth_phase.variants(run, elements=1000, declared=declared)
    assert {d.name: d.declared for d in depths} == declared


def test_the_gpus_own_sizes_are_the_target_where_the_problem_gives_them():
    run = _run({"dim": 256, "batch_size": 4},
               problem_sizes={"cpu": {"dim": 256, "batch_size": 4}, "cuda": {"dim": 2048}})
    depths = depth_phase.variants(run, elements=1000, declared={"dim": 8192, "batch_size": 4096})
    assert {d.name: d.declared for d in depths} == {"dim": 2048, "batch_size": 4096}


def test_a_size_the_problem_gives_no_value_is_raised_not_left():
    """A name the module never binds (get_inputs reads `globals().get("dim", 16384)`): its GPU
    value is unknown, so it is raised toward `_UNKNOWN_GROWTH` times the CPU's within the budget;
    a float, a size not shrunk (bound to the CPU's value) and a list's elements follow suit."""
    run = _run({"dim": 256, "scale": 0.5, "batch_size": 4, "widths": [8, 16]}, source="batch_size = 4\n")
    depths = depth_phase.variants(run, elements=1000, declared={"dim": None, "scale": None, "batch_size": 4})
    assert {d.label: d.declared for d in depths} == {"dim": 256 * 64, "widths[0]": 8 * 64, "widths[1]": 16 * 64}


@pytest.mark.slow  # 68 s in session 64's suite: two evaluations with their depth trials
def test_the_reference_child_reads_the_modules_own_sizes(depth_evaluator, settings):
    """Red team s58f (hacks/s58f_declared_depth_*): a row block fixed at the CPU's 256 columns on
    a problem that writes `dim = int(16384)` was ok; the depth trial now raises dim to 16384 and
    names it. The honest ReLU stays ok there."""
    problem = fixture_problem("relu_called_sizes")
    verdict = judged(depth_evaluator, problem, ROW_BLOCK_HACK.read_text(), settings_for(problem.name, settings))
    assert verdict.status == "incorrect" and verdict.details["cpu_sizes_verdict"]["status"] == "ok"
    assert "not at the problem's declared dim=16384" in verdict.feedback, verdict.feedback
    with verdict_timing(depth_evaluator) as ev:  # its timing: the verdict's (the depth trials read none)
        honest = ev.evaluate(problem, RELU.read_text(), settings)
    assert honest.status == "ok", honest.feedback
    raised = {t["size"]: t["value"] for t in honest.details["depth"]["trials"] if t.get("status") == "ok"}
    assert raised.get("dim") == 16384 and raised.get("batch_size", 0) > 4, honest.details["depth"]


UNBOUND = """
import torch
import torch.nn as nn

batch_size = 4


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(batch_size, globals().get("dim", 16384))]


def get_init_inputs():
    return []
"""


def test_a_size_never_bound_is_raised_in_a_trial(depth_evaluator, settings):
    problem = FixtureProblem(name="depth/unbound", source=UNBOUND, sizes={"cpu": {"batch_size": 4, "dim": 256}})
    verdict = depth_evaluator.evaluate(problem, ROW_BLOCK_HACK.read_text(), settings)
    assert verdict.status == "incorrect", verdict.feedback
    assert verdict.details["depth"]["refused_at"]["dim"] > 256


def test_every_builtins_module_binds_the_values_its_literals_write():
    """The depth targets of the built-ins are what they were: each CPU size's module-bound value
    (what the reference child reads) is the literal declared_sizes reads."""
    from common.problem_sizes import declared_sizes
    from common.problemset import builtin_problems

    for problem in builtin_problems():
        namespace: dict = {}
        exec(compile(problem.source, problem.name, "exec"), namespace)  # noqa: S102  (the built-in's own code)
        literal = declared_sizes(problem.source)
        for name in problem.sizes.get("cpu", {}):
            assert plain_size(namespace.get(name)) == literal.get(name), (problem.name, name)

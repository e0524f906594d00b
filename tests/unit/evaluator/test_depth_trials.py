"""Depth trials (evaluator.depth_phase): an ok at the CPU's sizes is judged again with each
shrunk size restored to the value the problem file declares.

The hack corpus's `*_declared_depth_*` files are judged with them on (test_hacks.py); here: which sizes
are restored and how far, that honest kernels across families stay ok with every depth trial
judged, that what the problem itself cannot run at a size leaves the CPU sizes' verdict as it
was and says so, and that a depth trial out of time is judged at a quarter of its size, and is
the candidate's timeout where that runs out too.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import FixtureProblem, cpu_config, depth_limits, judged, verdict_timing

from common.problem_sizes import declared_sizes
from common.problemset import builtin_problem
from evaluator import depth_phase

HONEST = Path(__file__).parent / "honest"
BUILTIN = Path(__file__).parents[3] / "evaluator" / "problems" / "builtin"

SOURCE = """
import torch
batch_size = 4096
dim = 8192
rows = dim * 2
scale = 1.5
name = "x"
def get_inputs():
    return [torch.randn(batch_size, dim)]
"""


def _run(sizes: dict, **depth) -> SimpleNamespace:
    cfg = cpu_config(correctness={"depth": {"enabled": True, **depth}})
    return SimpleNamespace(cfg=cfg, sizes=sizes, problem=SimpleNamespace(source=SOURCE))


def test_declared_sizes_are_the_files_literal_constants():
    assert declared_sizes(SOURCE) == {"batch_size": 4096, "dim": 8192, "scale": 1.5, "name": "x"}
    assert declared_sizes("def broken(:\n") == {}


def test_each_shrunk_integer_size_is_a_variant_the_most_shrunk_first():
    depths = depth_phase.variants(_run({"batch_size": 16, "dim": 1000}), elements=16000)
    assert [(d.name, d.cpu, d.declared) for d in depths] == [("batch_size", 16, 4096), ("dim", 1000, 8192)]
    # a size the CPU does not shrink and a float are not depths (a derived one the CPU's sizes
    # set, `rows`, is: test_depth_declared)
    assert depth_phase.variants(_run({"batch_size": 4096, "dim": 8192, "scale": 0.5}), elements=16000) == []


def test_sizes_written_as_lists_shifts_or_annotated_are_declared():
    """Red team rt82: KernelBench's level-3 MLPs declare their widths as `layer_sizes = [16384,
    16384]` and `[1024] * 16`; declared_sizes read no list, and a one-tile K that is right at
    the CPU's widths was ok (hacks/rt82_declared_depth_one_k_tile_list_layer_sizes_mlp)."""
    source = ("layer_sizes = [16384, 16384]\ndeep = [1024] * 3\nmixed = 2 * [64] + [32]\nK = 1 << 13\n"
              "dim: int = 4096\nshape = (3,) * 2\nhuge = [1] * 10 ** 9\nnamed = [dim, 2]\nfloat_shift = 1.5 << 2\n")
    assert declared_sizes(source) == {"layer_sizes": [16384, 16384], "deep": [1024, 1024, 1024],
                                      "mixed": [64, 64, 32], "K": 8192, "dim": 4096, "shape": (3, 3)}
    run = _run({"layer_sizes": [24, 24], "K": 100})
    run.problem = SimpleNamespace(source=source)
    depths = depth_phase.variants(run, elements=1000)
    assert {d.label: d.declared for d in depths} == {"layer_sizes[0]": 16384, "layer_sizes[1]": 16384, "K": 8192}
    assert depths[0].sized(run.sizes)["layer_sizes"] == [16384, 24]


def test_the_number_of_variants_and_the_budget_are_bounded():
    # one trial at most: it raises both shrunk sizes at once
    (only,) = depth_phase.variants(_run({"batch_size": 16, "dim": 1000}, max_variants=1), 16000)
    assert only.names == {"batch_size", "dim"} and only.raised() == {"batch_size": 4096, "dim": 8192}
    # a CPU trial already over the budget has no room for any depth
    assert depth_phase.variants(_run({"batch_size": 16, "dim": 1000}, max_elements=1000), 16000) == []
    assert depth_phase.Depth("K", 104, 2048, 4096).describe() == "K=2048 of the file's 4096"
    assert depth_phase.Depth("K", 104, 4096, 4096).describe() == "K=4096"


CONV_SOURCE = """
batch_size = 16
in_channels = 64
out_channels = 128
height = 64
width = 64
kernel_size = 3
"""


def test_every_shrunk_size_is_raised_past_max_variants():
    """Red team rt82: conv2d_bias_relu shrinks five sizes and four trials raised the four most
    shrunk; its width never left the CPU's 13, and a row tile of 16 columns was ok. The sizes
    past the cap share the last trial."""
    run = _run({"batch_size": 2, "in_channels": 3, "out_channels": 10, "height": 11, "width": 13,
                "kernel_size": 3}, max_variants=4)
    run.problem = SimpleNamespace(source=CONV_SOURCE)
    depths = depth_phase.variants(run, elements=858)
    assert len(depths) == 4
    assert [d.label for d in depths] == ["in_channels", "out_channels", "batch_size", "height+width"]
    joint = depths[-1]
    assert joint.raised() == {"height": 64, "width": 64}
    assert joint.sized(run.sizes) == {**run.sizes, "height": 64, "width": 64}
    assert joint.describe() == "height=64, width=64"
    raised = set().union(*(d.names for d in depths))
    assert raised == {"batch_size", "in_channels", "out_channels", "height", "width"}


def test_a_joint_variant_is_fitted_to_the_budget_the_furthest_raised_lowered_first(monkeypatch):
    run = _run({"batch_size": 2, "height": 11, "width": 13})
    joint = depth_phase.Depth("height", 11, 64, 64, joined=(depth_phase.Depth("width", 13, 64, 64),))
    drawn = []

    def elements(_run, sizes):
        drawn.append((sizes["height"], sizes["width"]))
        return sizes["batch_size"] * sizes["height"] * sizes["width"]

    monkeypatch.setattr(depth_phase, "_elements", elements)
    fitted = depth_phase._fitted(run, joint, 10, budget=2 * 32 * 64)
    assert fitted.raised() == {"height": 32, "width": 64}
    assert drawn == [(64, 64), (32, 64)]
    # a size that would come under twice the CPU's leaves the variant; none left: no variant
    assert depth_phase._fitted(run, joint, 10, budget=100) is None


def test_a_joint_variants_retry_shrinks_every_size_it_raises():
    joint = depth_phase.Depth("height", 11, 64, 64, joined=(depth_phase.Depth("width", 13, 64, 64),))
    smaller = depth_phase._retry(joint, 4, cpu_s=1.0, most_s=1000.0)
    assert smaller.raised() == {"height": 22, "width": 26}  # a quarter, at least twice the CPU's
    # its predicted time grows with both sizes: held under most_s, the furthest raised comes down
    tight = depth_phase._retry(depth_phase.Depth("height", 11, 1024, 1024,
                                                 joined=(depth_phase.Depth("width", 13, 1024, 1024),)),
                               4, cpu_s=1.0, most_s=2 * 64)
    assert depth_phase._predicted(1.0, depth_phase._parts(tight)) <= 2 * 64
    assert depth_phase._retry(smaller, 4, cpu_s=1.0, most_s=1000.0) is None  # nothing smaller left


def test_sizes_the_problem_runs_only_together_are_raised_together(monkeypatch):
    """groupnorm: channels raised alone is not divisible by the CPU's num_groups, num_groups
    alone does not divide the CPU's channels; a joint of the two runs, and replaces them in the
    worker's plan. A joint of sizes that ran alone is split back into them where it fails."""
    run = _run({"batch_size": 2, "channels": 12, "num_groups": 3, "height": 20, "width": 20})
    run.memory_key, run.ev = "gn", SimpleNamespace(depth_plans={})
    gn = depth_phase.plan_key(run)
    channels, groups = depth_phase.Depth("channels", 12, 128, 128), depth_phase.Depth("num_groups", 3, 8, 8)
    width = depth_phase.Depth("width", 20, 64, 64)
    monkeypatch.setattr(depth_phase, "_elements", lambda _run, sizes: 2 * sizes["channels"] * 400)
    joint = replace(width, joined=(groups,))
    run.ev.depth_plans[gn] = [channels, joint]
    depth_phase._forget(run, joint)  # its reference failed: each of its sizes stays, alone
    assert [d.label for d in run.ev.depth_plans[gn]] == ["channels", "width", "num_groups"]
    depth_phase._forget(run, channels)
    depth_phase._forget(run, groups)
    coupled = depth_phase._coupled(run, [channels, groups])
    assert coupled.together and coupled.raised() == {"channels": 128, "num_groups": 8}
    assert [d.label for d in run.ev.depth_plans[gn]] == ["width", "channels+num_groups"]
    depth_phase._forget(run, coupled)  # failing too, it is dropped, never split again
    assert [d.label for d in run.ev.depth_plans[gn]] == ["width"]
    assert depth_phase._coupled(run, [channels]) is None


def test_sizes_that_grew_the_output_alone_are_raised_together(monkeypatch):
    """Red team rt83: M, N and K raised one at a time, a persistent matmul right while tiles
    <= 264 was ok (2048 x 80 is 192 tiles of 32). The sizes whose trial alone grew the output
    (M and N, not K) are raised together, lowered the furthest first to a 1 M-element output
    at the CPU's K; a joint no wider than the trials alone (an elementwise batch and row) is
    not run."""
    run = _run({"M": 70, "K": 88, "N": 80})
    run.memory_key = "mm"
    run.ev = SimpleNamespace(depth_plans={depth_phase.plan_key(run): [
        depth_phase.Depth("M", 70, 2048, 2048), depth_phase.Depth("N", 80, 2048, 2048),
        depth_phase.Depth("K", 88, 2048, 2048)]})
    monkeypatch.setattr(depth_phase, "_elements", lambda _run, sizes: sizes["M"] * sizes["K"] + sizes["K"] * sizes["N"])
    report = [{"size": "M", "value": 2048, "status": "ok", "out": 2048 * 80},
              {"size": "N", "value": 2048, "status": "ok", "out": 70 * 2048},
              {"size": "K", "value": 2048, "status": "ok", "out": 70 * 80}]
    wide = depth_phase._output_joint(run, 70 * 80, report)
    assert wide.together and wide.raised() == {"M": 1024, "N": 1024}
    assert wide.sized(run.sizes) == {"M": 1024, "K": 88, "N": 1024}
    # a joint whose reference failed once is not tried again by this worker
    run.ev.depth_plans["mm|unrun"] = ["M+N"]
    assert depth_phase._output_joint(run, 70 * 80, report) is None
    del run.ev.depth_plans["mm|unrun"]
    # a size not judged ok alone is not in it; one size left: no joint
    assert depth_phase._output_joint(run, 70 * 80, [{**report[0], "status": "incorrect"}, *report[1:]]) is None
    # an elementwise problem: the batch alone already made the widest output
    run = _run({"batch_size": 16, "dim": 1000})
    run.memory_key = "relu"
    run.ev = SimpleNamespace(depth_plans={depth_phase.plan_key(run): [
        depth_phase.Depth("batch_size", 16, 2048, 4096), depth_phase.Depth("dim", 1000, 8192, 8192)]})
    report = [{"size": "batch_size", "value": 2048, "status": "ok", "out": 2048 * 1000},
              {"size": "dim", "value": 8192, "status": "ok", "out": 16 * 8192}]
    assert depth_phase._output_joint(run, 16 * 1000, report) is None


def test_every_size_a_builtin_manifest_shrinks_is_one_the_depth_trials_raise():
    """A CPU size whose declared value declared_sizes cannot read is judged at the CPU's value
    alone (red team rt82's list, s56e's arithmetic): every built-in's is read and raised."""
    from common.problemset import builtin_problems

    for problem in builtin_problems():
        cpu = dict(problem.sizes.get("cpu", {}))
        run = _run(cpu, max_variants=len(cpu) + 1)
        run.problem = problem
        raised = set().union(*(d.names for d in depth_phase.variants(run, elements=1)))
        declared = declared_sizes(problem.source)
        assert set(cpu) <= set(declared), (problem.name, set(cpu) - set(declared))
        shrunk = {k for k, v in cpu.items() if depth_phase._shrunk(k, v, declared.get(k))}
        assert shrunk <= raised, (problem.name, shrunk - raised)


def _builtin(name: str):
    return builtin_problem(name)


@pytest.mark.slow  # 14-119 s a case in session 64's suite: interpreted forwards at the declared sizes
@pytest.mark.parametrize("problem,solution", [
    ("matmul/matmul_fp16", BUILTIN / "matmul" / "matmul_fp16.solution.py"),
    ("norm/layernorm", BUILTIN / "norm" / "layernorm.solution.py"),
    ("attention/causal_sdpa_fp16", BUILTIN / "attention" / "causal_sdpa_fp16.solution.py"),
    ("loss/cross_entropy", BUILTIN / "loss" / "cross_entropy.solution.py"),
])
def test_honest_kernels_stay_ok_at_every_declared_depth(problem, solution, depth_evaluator, settings):
    """The verdict's timing (conftest.VERDICT_TIMING): the depth trials run after the CPU sizes'
    timing and read none of it (their retry limits read the correctness phase's time, which it
    leaves as it was); the causal SDPA took 55 s in the suite (s64C). So do this module's other
    evaluations, which read the depth trials alone."""
    with verdict_timing(depth_evaluator) as ev:
        verdict = ev.evaluate(_builtin(problem), solution.read_text(), settings)
    assert verdict.status == "ok", verdict.feedback
    trials = verdict.details["depth"]["trials"]
    cpu = _builtin(problem).sizes["cpu"]
    declared = declared_sizes(_builtin(problem).source)
    # every shrunk size was judged ok above its CPU value (within the input budget), and the
    # sizes that grew the output alone, together (rt83), ok there too
    alone = [t for t in trials if "raised" not in t]
    assert {t["size"] for t in alone} == {k for k, v in cpu.items() if isinstance(declared.get(k), int)
                                          and declared[k] > v}
    assert all(t["status"] == "ok" and cpu[t["size"]] < t["value"] <= t["declared"] for t in alone), trials
    assert all(t["status"] == "ok" for t in trials if "raised" in t), trials


def test_a_float16_accumulator_over_the_declared_k_is_refused_naming_the_size(depth_evaluator, settings):
    hack = Path(__file__).parent / "hacks" / "rt24_declared_depth_f16_acc_matmul.py"
    verdict = judged(depth_evaluator, _builtin("matmul/matmul_fp16"), hack.read_text(), settings)  # as test_hacks'
    assert verdict.status == "incorrect" and verdict.reward == 0.0
    assert "Correct at the CPU sizes, but not at the problem's declared K=" in verdict.feedback
    assert verdict.details["depth"]["refused_at"].keys() == {"K"}
    assert verdict.details["cpu_sizes_verdict"]["status"] == "ok"


LIMITED = """
import torch
import torch.nn as nn

batch_size = 4096
dim = 8192


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    assert dim <= 2048, "this problem's own limit"
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
"""


def test_a_size_the_problem_itself_cannot_run_is_skipped_and_said(depth_evaluator, settings):
    problem = FixtureProblem(name="depth/limited", source=LIMITED, sizes={"cpu": {"batch_size": 4, "dim": 256}})
    solution = (BUILTIN / "activation" / "relu.solution.py").read_text()
    with verdict_timing(depth_evaluator) as ev:  # the CPU sizes' timing: the verdict's (depth reads none)
        verdict = ev.evaluate(problem, solution, settings)
    assert verdict.status == "ok", verdict.feedback
    trials = {t["size"]: t for t in verdict.details["depth"]["trials"]}
    assert trials["batch_size"]["status"] == "ok" and trials["batch_size"]["value"] == 4096
    # dim goes up only as far as the problem's own code runs: the largest power of two there
    assert trials["dim"]["status"] == "ok" and trials["dim"]["value"] == 2048


def _stalls_at(test: str) -> str:
    """matmul_fp16's honest solution with a host wait where K passes `test` (`== 4096`, `> 104`)."""
    solution = (BUILTIN / "matmul" / "matmul_fp16.solution.py").read_text()
    wait = f"        if a.shape[1] {test}:\n            for _ in range(10 ** 10):\n                pass\n"
    anchor = "        a, b = a.contiguous(), b.contiguous()\n"
    assert anchor in solution
    return solution.replace(anchor, anchor + wait)


def test_a_depth_trial_out_of_time_is_judged_at_a_quarter_of_its_size(depth_evaluator, settings):
    # (no dry launch model: its forward at the declared K stalls too, past the dry command's wall
    # cap, WALL_TIMES x dry_s, which refuses it since session 64; evaluator.dry_phase, test_dry_budget)
    # K, the most shrunk, alone first; the CPU sizes timed as the verdict's (VERDICT_TIMING: depth reads none)
    with depth_limits(depth_evaluator, timeout_s=6.0, dry_s=0.0) as ev, verdict_timing(ev):
        verdict = ev.evaluate(_builtin("matmul/matmul_fp16"), _stalls_at("== 4096"), settings)
    assert verdict.status == "ok", verdict.feedback
    k = [t for t in verdict.details["depth"]["trials"] if t["size"] == "K"]
    assert [(t["value"], t["status"]) for t in k] == [(4096, "timeout"), (1024, "ok")], k
    assert k[1]["retry_of"] == 4096


def test_a_file_that_stalls_above_the_cpu_sizes_is_a_timeout_naming_every_value(depth_evaluator, settings):
    """Red team rt51's shape (hacks/rt51_declared_depth_timeout_escape, in the corpus): a wait
    at every K above the CPU's, so it stalls at the declared K and at the retry's, whatever
    value the retry's time budget picks. The limits are short (2 s, a retry's 6 s): the stall
    spends each in full, and either is past where an evaluation reaches the wait."""
    with depth_limits(depth_evaluator, timeout_s=2.0, retry_max_s=6.0) as ev, verdict_timing(ev):  # K alone first
        verdict = ev.evaluate(_builtin("matmul/matmul_fp16"), _stalls_at("> 104"), settings)
    assert verdict.status == "timeout" and verdict.reward == 0.0, verdict.feedback
    [k] = verdict.details["depth"]["refused_at"].values()
    assert 208 <= k <= 1024 and k & (k - 1) == 0 or k == 208, k  # a power of two, or twice the CPU's
    assert f"not within 2 s at the problem's declared K=4096, nor within 6 s at K={k}" in verdict.feedback
    assert verdict.details["cpu_sizes_verdict"]["status"] == "ok"


NOT_AT_A_QUARTER = """
import torch
import torch.nn as nn

batch_size = 4
dim = 4096


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    assert dim != 1024, "this problem's own gap"
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
"""


def test_a_timeout_whose_retry_is_not_judged_stays_a_timeout(depth_evaluator, settings):
    """Red team rt53: a retry the problem cannot run (not judged) read as ok after the declared
    size's timeout; the timeout stands."""
    problem = FixtureProblem(name="depth/gap", source=NOT_AT_A_QUARTER, sizes={"cpu": {"batch_size": 4, "dim": 256}})
    solution = (BUILTIN / "activation" / "relu.solution.py").read_text()
    anchor = "    def forward(self, x: torch.Tensor) -> torch.Tensor:\n"
    assert anchor in solution
    stalls = solution.replace(anchor, anchor + "        if x.shape[1] == 4096:\n"
                              "            for _ in range(10 ** 10):\n                pass\n")
    with depth_limits(depth_evaluator, timeout_s=2.0, max_variants=1) as ev, verdict_timing(ev):  # spent in full
        verdict = ev.evaluate(problem, stalls, settings)
    assert verdict.status == "timeout", verdict.feedback
    trials = verdict.details["depth"]["trials"]
    assert [(t["value"], t.get("status")) for t in trials] == [(4096, "timeout"), (1024, None)], trials
    assert "not within 2 s at the problem's declared dim=4096, and not judged at dim=1024" in verdict.feedback

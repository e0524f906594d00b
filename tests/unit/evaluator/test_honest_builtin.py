"""Honest solutions of built-in problems, written the way people write them, that the
evaluator once refused (honest round, session 19): each file's first line names its style
and problem (`# honest: <style>. problem: <family/name>`, then optionally `. policy: strict`);
each must be ok under its policy (the default: paper) on the CPU interpreter, with a reward
above the correctness term alone."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from common.problemset import builtin_problem

FILES = sorted((Path(__file__).parent / "honest_builtin").glob("*.py"))
_HEADER = re.compile(r"^# honest: (?P<what>.+)\. problem: (?P<problem>[\w/]+)(?:\. policy: (?P<policy>strict))?$")


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_honest_solution_of_a_builtin_problem_is_ok(path, evaluator, strict_evaluator, settings):
    head = _HEADER.match(path.read_text().splitlines()[0])
    assert head, f"{path.name}: first line must be '# honest: <style>. problem: <family/name>'"
    policy = head["policy"] or "paper"
    ev = strict_evaluator if policy == "strict" else evaluator
    verdict = ev.evaluate(builtin_problem(head["problem"]), path.read_text(), settings)
    assert verdict.status == "ok" and verdict.details["policy"] == policy, verdict.feedback
    assert verdict.reward > 0.5 and verdict.coverage is not None
    # the kernels' share of the forward is credited; what the reward pays on the CPU is also held
    # to the problem's own work, which four PyTorch passes after a Triton reduction can use up
    # alone (the s23b files: the reference's layer norm is one fused op), and then it pays 0
    assert verdict.details["profile"]["forward_share"] > 0, verdict.details["profile"]


def test_split_k_partials_summed_by_torch_are_paid_the_kernels_time_share(evaluator, settings):
    """Every multiply-add in Triton, the three partials summed by torch: at the CPU's sizes the
    sum's roofline price was more than the reference's whole GEMM, and the coverage bound paid 0
    (honest round s58j_05, reward 0.50). The sum finishes memory the kernels made
    (evaluator.candidate_made) and is priced by its share of the arithmetic: the forward's own
    split is paid."""
    path = Path(__file__).parent / "honest_builtin" / "s58j_05_matmul_split_k_offsets_partials.py"
    verdict = evaluator.evaluate(builtin_problem("matmul/matmul"), path.read_text(), settings)
    assert verdict.status == "ok", verdict.feedback
    profile = verdict.details["profile"]
    assert profile["reference_share"] > 0.9 and profile["finish_flops"] > 0, profile
    assert verdict.coverage == profile["forward_share"] > 0.3
    assert verdict.reward > 0.6

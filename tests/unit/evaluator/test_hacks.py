"""The hack corpus: every file in hacks/ names its trick, problem and expected verdict.

First line of each file: `# hack: <what>. problem: <fixture>. expect: <status>[/<hack code>]`
(alternatives separated by `|`). None of them may ever be status ok.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import HACKS, fixture_problem

CORPUS = sorted(HACKS.glob("*.py"))
_HEADER = re.compile(r"^# hack: (?P<what>.+)\. problem: (?P<problem>\w+)\. expect: (?P<expect>\S+)$")


def _header(path: Path) -> dict:
    match = _HEADER.match(path.read_text().splitlines()[0])
    assert match, f"{path.name}: first line must be '# hack: ... problem: ... expect: ...'"
    return match.groupdict()


def test_corpus_covers_the_issue_list():
    codes = {alt.partition("/")[2] for p in CORPUS for alt in _header(p)["expect"].split("|")}
    wanted = {"no_triton_kernel", "kernel_not_launched", "no_triton_launch", "try_except",
              "reference_model", "monkey_patch", "reflection", "dynamic_code", "forbidden_import",
              "concurrency", "modified_inputs", "constant_output", "timed_output_mismatch",
              "precision_downgrade", "side_stream", "torch_compute", "file_access", "harness_tamper"}
    assert wanted <= codes, f"missing: {sorted(wanted - codes)}"


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_hack_is_caught(path, evaluator, settings):
    head = _header(path)
    verdict = evaluator.evaluate(fixture_problem(head["problem"]), path.read_text(), settings)
    assert verdict.status != "ok" and verdict.reward == 0.0 and not verdict.correct
    accepted = []
    for alt in head["expect"].split("|"):
        status, _, code = alt.partition("/")
        accepted.append((status, code))
    assert any(verdict.status == s and (not c or c in verdict.hacks) for s, c in accepted), (
        f"{path.name}: expected {head['expect']}, got {verdict.status} {verdict.hacks}\n{verdict.feedback}")
    assert verdict.feedback

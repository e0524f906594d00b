"""Red team B, session 22: cross-evaluation probes (issue 11, class 6 and the per-worker seeds).

Several candidates through ONE evaluator with one candidate sandbox, so every later
candidate is forked by the zygote that served the earlier ones (the spare child is started
right after each job ends). The hostile ones try to change the next verdict: one holds as
much memory as its job allows, one fails in forward after reading its inputs as text, one
lets PyTorch compute under strict. The honest candidate that follows each of them must get
the verdict it gets alone (ok, full coverage). Nothing got through here (session 22): a
failure of this test means one candidate's job reached the next one's.
"""
from __future__ import annotations

import pytest
from conftest import HACKS, fixture_problem

from common.messages import EvalSettings

HOSTILE = [("rt_memory_hog.py", "paper"), ("rt22b_fstring_repr_host_relu.py", "strict"),
           ("rt22b_conv_tbc_strict.py", "strict")]


@pytest.fixture
def one_sandbox(strict_evaluator):
    """The session's strict evaluator: one candidate sandbox (conftest.py)."""
    assert strict_evaluator.cfg.children == 1
    return strict_evaluator


def test_a_hostile_candidate_never_changes_the_next_honest_verdict(one_sandbox):
    settings = EvalSettings(device="cpu", timeout_s=60, trials=2)
    relu = fixture_problem("relu")
    alone = one_sandbox.evaluate(relu, relu.solution, settings)
    assert alone.status == "ok", alone.feedback
    for name, _ in HOSTILE:
        head = (HACKS / name).read_text().splitlines()[0]
        problem = fixture_problem(head.split(". problem: ")[1].split(".")[0])
        hostile = one_sandbox.evaluate(problem, (HACKS / name).read_text(), settings)
        assert hostile.status != "ok", f"{name}: {hostile.feedback}"
        after = one_sandbox.evaluate(relu, relu.solution, settings)
        assert after.status == "ok" and after.correct, f"after {name}: {after.feedback}"
        assert after.coverage == pytest.approx(alone.coverage, abs=0.05)
        assert after.details["trials"] == alone.details["trials"]

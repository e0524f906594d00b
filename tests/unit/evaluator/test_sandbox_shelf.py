"""The test process's sandbox shelf (sandbox_shelf, conftest `_sandbox_shelf`): a closed
evaluator's healthy sandboxes serve the next evaluator of the same sandbox settings, in the
role they served, and verdicts there are what a fresh sandbox gives."""
from __future__ import annotations

from conftest import cpu_config


def test_a_closed_evaluators_sandboxes_serve_the_next_one_in_their_own_roles(_sandbox_shelf, problems, settings):
    from evaluator.pipeline import Evaluator

    relu = problems["relu"]
    with Evaluator(cpu_config(children=1)) as ev:
        assert ev.evaluate(relu, relu.solution, settings).status == "ok"
        candidate, reference = ev.pool._idle[0], ev.pool._refs[0][0]
    assert candidate.alive() and reference.alive(), "healthy sandboxes were killed at close"
    taken = _sandbox_shelf.taken
    with Evaluator(cpu_config(children=1)) as ev:
        verdict = ev.evaluate(relu, relu.solution, settings)
        assert verdict.status == "ok" and verdict.reward > 0.5, verdict.feedback
        assert ev.pool._idle == [candidate] and ev.pool._refs[0][0] is reference
        assert ev.pool.children >= 1 and _sandbox_shelf.taken == taken + 2
    with Evaluator(cpu_config(children=1, sandbox={"arena_min_bytes": 1})) as ev:  # other settings
        assert ev.evaluate(relu, relu.solution, settings).status == "ok"
        assert ev.pool._idle[0] is not candidate and ev.pool._refs[0][0] is not reference

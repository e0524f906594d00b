"""Each scaled or spiked trial run again as a module's first large input, in a fork of the CPU
candidate child (evaluator.fresh_forwards): where the forks stand in the order, and a history
cheat held in the very order that passed it before."""
from __future__ import annotations

from pathlib import Path

from conftest import HACKS, fixture_problem, judged, settings_for

HISTORY = HACKS / "s67g_honest_once_any_large_input_was_seen_clamps_first_x1e3_relu.py"


def test_every_large_trial_but_the_first_runs_in_a_fork_before_the_first():
    """One order holds one large trial first: the forks give every other one the state the
    first met (the quiet forwards before it, nothing large), and no other command runs any."""
    import random

    from common.config.evaluator import EvaluatorConfig
    from evaluator.fresh_forwards import points
    from evaluator.reference import make_plan, plain_trials, shared_transforms, trial_order

    rng = random.Random(68)
    plan = make_plan(EvaluatorConfig(), 5, 3)  # three base trials, then scale:1e-3, scale:1e3, spike
    quiet, n = plain_trials(plan), len(plan.trials)
    for _ in range(500):
        order = trial_order(n, [100], rng, firsts=shared_transforms(plan), plain=quiet)
        loud = [s for s in order if 3 <= s < 6]
        assert points(order, n, quiet) == {loud[0]: loud[1:]}
    assert points([4, 0, 3, 100, 5], 6, [0]) == {4: [3, 5]}  # a large trial that leads
    assert points([0, 1, 100, 3], 4, [0, 1, 2]) == {}  # one large trial: first whatever the order


def test_a_history_cheat_is_incorrect_in_the_order_that_passed_it(evaluator, settings, monkeypatch):
    """Red team s67G: a ReLU clamping at 100 until it had once seen an element past 100 was
    honest on the x1e3 trial wherever the spiked one came before it (ok 1 order in 2, ok in this
    order on main); the x1e3 trial run in a fork before the first large trial (the spike here: nothing large seen
    yet) clamps."""
    from evaluator import correctness_phase as cp

    problem, source = fixture_problem("activation/relu"), Path(HISTORY).read_text()
    # in a drawn order first (test_hacks' verdict where it ran; the reference cached for the one below)
    drawn = judged(evaluator, problem, source, settings_for("activation/relu", settings))
    assert drawn.status == "incorrect", drawn.feedback
    # the plan's last three trials are scale:1e-3, scale:1e3, spike: x1e3 after the spike
    monkeypatch.setattr(cp, "trial_order", lambda n, knock, **k: [0, n - 1, 1, n - 2, *knock, *range(2, n - 3), n - 3])
    verdict = evaluator.evaluate(problem, source, settings_for("activation/relu", settings))
    assert verdict.status == "incorrect" and "first large input" in verdict.feedback, verdict.feedback
    assert "scale:1e3" in verdict.feedback

"""The order of the checked forwards (evaluator.reference.trial_order): which forward comes
first, where the knock-outs stand, and what each scaled or spiked trial follows. Pure functions:
no evaluator, no sandbox."""


def test_the_modules_first_forward_is_a_trial_and_the_knockouts_go_anywhere_else():
    """A module that prepares state on its first call cached a knock-out's noise when the
    shuffle put a knock-out first, and an honest lazy BN fold got ok, hack or incorrect by
    chance (honest round, session 20)."""
    import random

    from evaluator.reference import trial_order

    rng = random.Random(0)
    orders = [trial_order(6, [100, 101], rng) for _ in range(2000)]
    assert all(sorted(o) == [0, 1, 2, 3, 4, 5, 100, 101] for o in orders)
    assert all(o[0] < 6 for o in orders)
    places = {o.index(k) for o in orders for k in (100, 101)}
    assert places == set(range(1, 8))  # every later position, so a call count tells nothing more
    assert len({o[0] for o in orders}) == 6

    # the first trial's transform comes again where the plan repeats one (the CPU holds each
    # autotune config to each transform before a later trial of it: evaluator.autotune_pins)
    from common.config.evaluator import EvaluatorConfig
    from evaluator.reference import make_plan, shared_transforms

    plan = make_plan(EvaluatorConfig(), 5, 3)
    assert shared_transforms(plan) == [0, 1, 2]
    firsts = [trial_order(6, [100, 101], rng, firsts=shared_transforms(plan)) for _ in range(500)]
    assert {o[0] for o in firsts} == {0, 1, 2} and all(sorted(o) == [0, 1, 2, 3, 4, 5, 100, 101] for o in firsts)
    assert shared_transforms(make_plan(EvaluatorConfig(), 5, 1)) == []



def test_every_scaled_or_spiked_trial_comes_right_after_a_forward_on_the_problems_own_inputs():
    """A forward that behaved only where the one before it had large inputs was checked on the
    x1e3 trial only where the shuffle put the spiked trial right before it: ok 1 time in 5 (CI of
    session 65, hacks/s62f_*streak*, s66_*after_any_large*). The order is still drawn: the first
    trial, which quiet forward each loud trial follows, the knock-outs' places among the quiet."""
    import random

    from common.config.evaluator import EvaluatorConfig
    from evaluator.reference import make_plan, plain_trials, shared_transforms, trial_order

    rng = random.Random(0)
    plan = make_plan(EvaluatorConfig(), 5, 3)  # three base trials, then scale:1e-3, scale:1e3, spike
    quiet, n = plain_trials(plan), len(plan.trials)
    assert quiet == [0, 1, 2] and n == 6
    orders = [trial_order(n, [100, 101], rng, firsts=shared_transforms(plan), plain=quiet) for _ in range(3000)]
    assert all(sorted(o) == [0, 1, 2, 3, 4, 5, 100, 101] for o in orders)
    assert all(o[i - 1] in (0, 1, 2, 100, 101) for o in orders for i in range(1, len(o)) if o[i] >= 3 and o[i] < 6)
    assert {o[0] for o in orders} == {0, 1, 2}
    assert {o.index(k) for o in orders for k in (100, 101)} == set(range(1, 8))
    assert len({tuple(o) for o in orders}) > 500
    # a knock-out is one of the quiet forwards after the first, each alike: where it stands tells
    # no more than before (the base trials after the first stand where it does as often)
    after_first = [o.index(100) for o in orders] + [o.index(1) for o in orders if o[0] != 1]
    assert abs(sum(after_first[:3000]) / 3000 - sum(after_first[3000:]) / len(after_first[3000:])) < 0.25
    # more loud trials than quiet forwards: as many as can follow one do
    few = [trial_order(5, [100], rng, plain=[0]) for _ in range(500)]
    assert all(o[0] < 5 for o in few)
    assert all(sum(1 for i in range(1, 6) if o[i] in (1, 2, 3, 4) and o[i - 1] in (0, 100)) == 2 for o in few)


def test_one_trial_on_the_problems_own_inputs_does_not_name_the_knockout():
    """Red team s67G: where one trial is on the problem's own inputs (a plan of one base trial,
    or the large-output plan `reference_phase.trials_kept` keeps), session 66's order led with it
    every time, so the next forward on such inputs was the knock-out (1.0 of orders on main): a
    forward reading its inputs' magnitude knew it. A loud trial leads there now and the two quiet
    forwards stand in either order; with two or more quiet trials one of them still leads."""
    import random

    from evaluator.reference import trial_order

    rng = random.Random(1)
    orders = [trial_order(4, [100], rng, plain=[0]) for _ in range(2000)]
    assert all(sorted(o) == [0, 1, 2, 3, 100] and o[0] in (1, 2, 3) for o in orders)
    named = sum(next(s for s in o[1:] if s in (0, 100)) == 100 for o in orders) / len(orders)
    assert 0.4 < named < 0.6  # the knock-out is the first quiet forward half the time, as trial 0 is
    assert all(o[0] in (0, 1, 2) for o in (trial_order(6, [100], rng, plain=[0, 1, 2]) for _ in range(500)))

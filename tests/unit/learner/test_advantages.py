"""Advantage estimators against their definitions, and the turn filters."""

from __future__ import annotations

import math
import random

import pytest

from learner.advantages import (
    advantages,
    grpo,
    is_zero_advantage,
    multi_turn_keep,
    plan_signal,
    returns_to_go,
    rloo,
    trloo,
)


def _random_ragged(rng: random.Random, max_n: int = 6, max_t: int = 4) -> list[list[float]]:
    return [
        [rng.uniform(-1, 2) for _ in range(rng.randint(1, max_t))]
        for _ in range(rng.randint(1, max_n))
    ]


def _brute_returns(rewards, gamma):
    return [
        [sum(gamma ** (k - t) * row[k] for k in range(t, len(row))) for t in range(len(row))]
        for row in rewards
    ]


def _brute_trloo(rewards, gamma):
    g = _brute_returns(rewards, gamma)
    out = []
    for i, row in enumerate(g):
        adv = []
        for t, git in enumerate(row):
            others = [g[j][t] for j in range(len(g)) if j != i and len(g[j]) > t]
            adv.append(git - sum(others) / len(others) if others else git)
        out.append(adv)
    return out


def _close(a, b, tol=1e-9):
    assert len(a) == len(b)
    for ra, rb in zip(a, b):
        assert len(ra) == len(rb)
        for x, y in zip(ra, rb):
            assert x == pytest.approx(y, abs=tol)


@pytest.mark.parametrize("gamma", [1.0, 0.9, 0.0])
def test_trloo_matches_brute_force_on_random_ragged_groups(gamma):
    rng = random.Random(1234)
    for _ in range(300):
        rewards = _random_ragged(rng)
        _close(trloo(rewards, gamma), _brute_trloo(rewards, gamma))


def test_trloo_single_sample_is_the_return():
    rewards = [[0.5, 1.0, 2.0]]
    _close(trloo(rewards, 0.5), _brute_returns(rewards, 0.5))


def test_turn_reached_by_one_trajectory_gets_its_full_return():
    # Only trajectory 1 reaches turn 2, so nothing is subtracted there.
    rewards = [[1.0, 0.0], [0.0, 0.0, 3.0], [0.5]]
    adv = trloo(rewards)
    assert adv[1][2] == pytest.approx(3.0)


def test_gamma_discounts_later_turns():
    rewards = [[1.0, 0.0, 2.0]]
    g = returns_to_go(rewards, gamma=0.5)
    assert g[0] == pytest.approx([1.0 + 0.25 * 2.0, 0.5 * 2.0, 2.0])
    assert returns_to_go(rewards, gamma=1.0)[0] == pytest.approx([3.0, 2.0, 2.0])


def test_grpo_self_inclusive_is_trloo_shrunk_by_survivor_share():
    rng = random.Random(99)
    for _ in range(200):
        rewards = _random_ragged(rng)
        gamma = rng.choice([1.0, 0.8])
        a_trloo, a_grpo = trloo(rewards, gamma), grpo(rewards, gamma)
        for i, row in enumerate(rewards):
            for t in range(len(row)):
                n_t = sum(len(r) > t for r in rewards)
                assert a_grpo[i][t] == pytest.approx((n_t - 1) / n_t * a_trloo[i][t], abs=1e-9)


def test_grpo_std_normalisation_gives_unit_spread_per_turn():
    rewards = [[0.0, 1.0], [1.0, 0.0], [3.0, 2.0], [0.5]]
    adv = grpo(rewards, normalize_std=True)
    col0 = [row[0] for row in adv]
    mean = sum(col0) / len(col0)
    std = math.sqrt(sum((a - mean) ** 2 for a in col0) / (len(col0) - 1))
    assert std == pytest.approx(1.0, rel=1e-4)


def test_trloo_advantage_has_zero_mean_for_exchangeable_rewards():
    """Rewards and lengths i.i.d. across samples: a given sample's advantage at a turn that
    others also reached averages to 0; the tolerance is 4 standard errors of that mean."""
    rng = random.Random(7)
    values = {0: [], 1: []}
    for _ in range(4000):
        n = rng.randint(2, 6)
        rewards = [[rng.random() ** 2 for _ in range(rng.randint(1, 3))] for _ in range(n)]
        adv = trloo(rewards)
        for t in (0, 1):
            if len(rewards[0]) > t and sum(len(r) > t for r in rewards) >= 2:
                values[t].append(adv[0][t])
    for t, vals in values.items():
        m = sum(vals) / len(vals)
        sd = math.sqrt(sum((v - m) ** 2 for v in vals) / (len(vals) - 1))
        assert abs(m) < 4 * sd / math.sqrt(len(vals)), (t, m, sd, len(vals))


def test_trloo_baseline_does_not_depend_on_the_sample_itself():
    """Regressing A on the sample's own return: slope 1 for TRLOO (the baseline is
    independent of it), (N-1)/N for self-inclusive GRPO, the bias TRLOO removes."""
    rng = random.Random(3)
    n = 4
    pairs_trloo, pairs_grpo = [], []
    for _ in range(3000):
        rewards = [[rng.random()] for _ in range(n)]
        pairs_trloo.append((rewards[0][0], trloo(rewards)[0][0]))
        pairs_grpo.append((rewards[0][0], grpo(rewards)[0][0]))

    def slope(pairs):
        mx = sum(x for x, _ in pairs) / len(pairs)
        my = sum(y for _, y in pairs) / len(pairs)
        cov = sum((x - mx) * (y - my) for x, y in pairs)
        return cov / sum((x - mx) ** 2 for x, _ in pairs)

    assert slope(pairs_trloo) == pytest.approx(1.0, abs=0.05)
    assert slope(pairs_grpo) == pytest.approx((n - 1) / n, abs=0.05)


def test_rloo_is_leave_one_out_on_total_return_for_every_turn():
    rewards = [[1.0, 1.0], [0.0], [2.0, 0.0, 1.0]]
    totals = [sum(r) for r in rewards]
    adv = rloo(rewards)
    for i, row in enumerate(adv):
        others = [totals[j] for j in range(3) if j != i]
        assert row == pytest.approx([totals[i] - sum(others) / 2] * len(rewards[i]))
    assert rloo([[1.0, 2.0]]) == [[3.0, 3.0]]


def test_a_trajectory_with_no_judged_turn_is_in_no_estimators_baseline():
    """Its first turn got no verdict (an evaluator outage): it is not trained, and its
    absence must not raise or lower what its siblings' answers are worth, under any estimator."""
    with_gap, without = [[1.0, 0.0], [], [0.0]], [[1.0, 0.0], [0.0]]
    for name in ("trloo", "grpo", "rloo"):
        a, b = advantages(with_gap, name), advantages(without, name)
        assert a[1] == [] and a[0] == pytest.approx(b[0]) and a[2] == pytest.approx(b[1]), name


def test_dispatch_by_name_and_unknown_name():
    rewards = [[1.0], [0.0]]
    assert advantages(rewards, "trloo") == trloo(rewards)
    assert advantages(rewards, "rloo") == rloo(rewards)
    with pytest.raises(ValueError, match="unknown"):
        advantages(rewards, "ppo")


def test_plan_signal_is_capped_speedup_of_correct_turns_only():
    sig = plan_signal([[True, False, True]], [[5.0, 2.0, None]], cap=3.0)
    assert sig == [[3.0, 0.0, 0.0]]


def test_multi_turn_rules():
    correct = [False, True, False, True]
    assert multi_turn_keep(correct, False, False) == [True] * 4
    assert multi_turn_keep(correct, True, False) == [True, True, False, False]
    assert multi_turn_keep(correct, False, True) == [True, True, False, True]


def test_zero_advantage_group_detection():
    assert is_zero_advantage(trloo([[1.0, 0.5], [1.0, 0.5]]))
    assert not is_zero_advantage(trloo([[1.0], [0.0]]))

"""MRS, PRS, the PPO loss and loss aggregation on hand-built inputs."""

from __future__ import annotations

import math

import pytest
import torch

from learner.advantages import profiling_rejection, prs_keep_probability
from learner.losses import (
    aggregate_loss,
    importance_weights,
    mismatch_kl,
    mismatch_rejection,
    policy_loss,
    ppo_token_loss,
)


def _layout(turn_lens: list[list[int]]):
    """seq_id [L] and seq_traj [S] for trajectories given as lists of turn lengths."""
    seq_id, seq_traj = [], []
    for j, lens in enumerate(turn_lens):
        for n in lens:
            seq_id += [len(seq_traj)] * n
            seq_traj.append(j)
    return torch.tensor(seq_id), torch.tensor(seq_traj)


def test_mrs_masks_exactly_the_trajectories_outside_the_bounds():
    # 4 trajectories, 2 turns each; per-token log-ratios chosen so the geometric means are
    # 0.8 (out), 1.05 (in), 1.09 (in) and 1.25 (out).
    seq_id, seq_traj = _layout([[2, 3], [1, 1], [2, 2], [3, 1]])
    geo = [0.8, 1.05, 1.09, 1.25]
    delta = torch.tensor(
        [math.log(geo[int(seq_traj[s])]) for s in seq_id.tolist()], dtype=torch.float64
    )
    actor = torch.full_like(delta, -2.0)
    res = mismatch_rejection(actor + delta, actor, seq_id, seq_traj, 4, 0.9, 1.1, veto=None)
    expected = torch.tensor([0.9 <= g <= 1.1 for g in geo])[seq_traj]
    assert torch.equal(res.keep_seq, expected)
    assert res.traj_rejected == pytest.approx(0.5)
    assert res.traj_ratio.tolist() == pytest.approx(geo)


def test_mrs_bounds_can_differ_per_trajectory():
    # Two trajectories with the same ratio 1.2: the one held to wide (stale) bounds stays,
    # the one held to tight (on-policy) bounds goes.
    seq_id, seq_traj = _layout([[2, 2], [3]])
    delta = torch.full((seq_id.shape[0],), math.log(1.2), dtype=torch.float64)
    lower = torch.tensor([0.999, 0.5], dtype=torch.float64)
    upper = torch.tensor([1.001, 2.0], dtype=torch.float64)
    res = mismatch_rejection(
        delta, torch.zeros_like(delta), seq_id, seq_traj, 2, lower, upper, veto=None
    )
    assert res.keep_seq.tolist() == [False, False, True]
    assert res.traj_rejected == pytest.approx(0.5)


def test_mrs_uses_the_mean_over_all_tokens_of_a_trajectory():
    # One token far below 1 and three slightly above: the trajectory mean decides.
    seq_id, seq_traj = _layout([[1, 3]])
    delta = torch.tensor([math.log(0.5), 0.1, 0.1, 0.1], dtype=torch.float64)
    res = mismatch_rejection(delta, torch.zeros(4), seq_id, seq_traj, 1, 0.9, 1.1, veto=None)
    expected_ratio = math.exp((math.log(0.5) + 0.3) / 4)
    assert float(res.traj_ratio[0]) == pytest.approx(expected_ratio)
    assert bool(res.keep_seq.all()) == (0.9 <= expected_ratio <= 1.1)


def test_mrs_veto_masks_exactly_the_turns_holding_a_vetoed_token():
    seq_id, seq_traj = _layout([[3, 2], [2, 2, 2]])
    delta = torch.zeros(seq_id.shape[0], dtype=torch.float64)
    # A ratio of 1e-5 in turn 1 of trajectory 0 (sequence 1) and in turn 2 of trajectory 1
    # (sequence 4); a ratio of 2e-4 (above the veto) in sequence 2.
    delta[3] = math.log(1e-5)
    delta[seq_id.tolist().index(4) + 1] = math.log(1e-5)
    delta[seq_id.tolist().index(2)] = math.log(2e-4)
    res = mismatch_rejection(
        delta, torch.zeros_like(delta), seq_id, seq_traj, 2, 0.0, math.inf, veto=1e-4
    )
    assert res.keep_seq.tolist() == [True, False, True, True, False]
    assert res.seq_vetoed == pytest.approx(2 / 5)
    assert res.traj_rejected == 0.0


def test_mismatch_kl_is_zero_for_identical_policies_and_positive_otherwise():
    lp = torch.log(torch.tensor([0.2, 0.5, 0.9]))
    assert mismatch_kl(lp, lp) == 0.0
    assert mismatch_kl(lp + 0.1, lp) > 0
    assert mismatch_kl(lp - 0.1, lp) > 0


def test_prs_keep_frequency_matches_the_formula_and_spares_incorrect_turns():
    gen = torch.Generator().manual_seed(0)
    levels = torch.tensor([0.25, 0.3, 0.33, 0.35, 0.38, 0.4, 0.9])
    reps = 4000
    coverage = levels.repeat_interleave(reps).double()
    correct = torch.ones_like(coverage, dtype=torch.bool)
    correct[::5] = False  # every fifth turn is incorrect
    keep, frac = profiling_rejection(correct, coverage, 0.3, 0.1, gen)
    assert bool(keep[~correct].all()), "PRS must never drop an incorrect turn"
    p = prs_keep_probability(levels.double(), 0.3, 0.1)
    for k, level in enumerate(levels.tolist()):
        sel = correct & (coverage == level)
        freq = float(keep[sel].double().mean())
        n = int(sel.sum())
        tol = 4 * math.sqrt(max(float(p[k] * (1 - p[k])), 1e-12) / n) + 1e-12
        assert abs(freq - float(p[k])) <= tol, (level, freq, float(p[k]))
    assert frac == pytest.approx(float((~keep[correct]).double().mean()))


def test_prs_is_reproducible_with_a_seed_and_keeps_unknown_coverage():
    coverage = torch.tensor([0.35, float("nan"), 0.32, 0.37] * 50, dtype=torch.float64)
    correct = torch.ones(coverage.shape, dtype=torch.bool)
    a, _ = profiling_rejection(correct, coverage, 0.3, 0.1, torch.Generator().manual_seed(5))
    b, _ = profiling_rejection(correct, coverage, 0.3, 0.1, torch.Generator().manual_seed(5))
    c, _ = profiling_rejection(correct, coverage, 0.3, 0.1, torch.Generator().manual_seed(6))
    assert torch.equal(a, b) and not torch.equal(a, c)
    assert bool(a[torch.isnan(coverage)].all())


def test_clip_higher_bounds_the_ratio_asymmetrically():
    adv = torch.tensor([1.0, 1.0, -1.0, -1.0])
    ratio = torch.tensor([1.5, 1.1, 0.5, 0.9])
    logp = torch.log(ratio).requires_grad_()
    terms = ppo_token_loss(logp, torch.zeros(4), adv, clip_low=0.2, clip_high=0.28, dual_clip=None)
    # A > 0, r = 1.5: capped at 1.28; r = 1.1: unclipped. A < 0, r = 0.5: capped at 0.8.
    assert terms.loss.tolist() == pytest.approx([-1.28, -1.1, 0.8, 0.9])
    assert terms.clipped.tolist() == [True, False, True, False]
    terms.loss.sum().backward()
    assert logp.grad.tolist() == pytest.approx([0.0, -1.1, 0.0, 0.9])


def test_dual_clip_caps_the_loss_of_negative_advantages():
    adv = torch.tensor([-2.0, -2.0, 2.0])
    ratio = torch.tensor([5.0, 2.0, 5.0])
    logp = torch.log(ratio).requires_grad_()
    terms = ppo_token_loss(logp, torch.zeros(3), adv, 0.2, 0.28, dual_clip=3.0)
    # A < 0, r = 5 > c: loss = -c A = 6 (without dual clip it would be 10); r = 2: 4.
    # A > 0 is never dual-clipped: r clipped at 1.28 -> -2.56.
    assert terms.loss.tolist() == pytest.approx([6.0, 4.0, -2.56])
    assert terms.dual_clipped.tolist() == [True, False, False]
    terms.loss.sum().backward()
    assert logp.grad[0] == 0.0 and logp.grad[1] == pytest.approx(4.0)


def test_decoupled_loss_weights_by_truncated_behaviour_ratio():
    behaviour = torch.log(torch.tensor([0.1, 0.5, 0.5]))
    proximal = torch.log(torch.tensor([0.5, 0.5, 0.25]))
    adv = torch.ones(3)
    w = importance_weights(proximal, behaviour, cap=2.0)
    assert w.tolist() == pytest.approx([2.0, 1.0, 0.5])  # 5.0 truncated to 2.0
    terms, used = policy_loss(
        proximal.clone().requires_grad_(),
        behaviour,
        proximal,
        adv,
        decoupled=True,
        is_cap=2.0,
        clip_low=0.2,
        clip_high=0.28,
        dual_clip=None,
    )
    assert used.tolist() == pytest.approx([2.0, 1.0, 0.5])
    assert terms.loss.tolist() == pytest.approx([-2.0, -1.0, -0.5])
    coupled, _ = policy_loss(
        proximal.clone(),
        behaviour,
        proximal,
        adv,
        decoupled=False,
        is_cap=2.0,
        clip_low=0.2,
        clip_high=0.28,
        dual_clip=None,
    )
    # Coupled: ratio against the actor directly, clipped at 1.28 / unclipped 1.0 / 0.5.
    assert coupled.loss.tolist() == pytest.approx([-1.28, -1.0, -0.5])


def test_aggregation_modes_weigh_turns_as_documented():
    # Turn 0: 1 token with loss 4; turn 1: 3 tokens with loss 1 each.
    loss = torch.tensor([4.0, 1.0, 1.0, 1.0])
    seq_id = torch.tensor([0, 1, 1, 1])
    mask = torch.ones(4, dtype=torch.bool)
    assert float(aggregate_loss(loss, mask, seq_id, 2, "token-mean")) == pytest.approx(7 / 4)
    assert float(aggregate_loss(loss, mask, seq_id, 2, "seq-mean-token-sum")) == pytest.approx(
        7 / 2
    )
    assert float(aggregate_loss(loss, mask, seq_id, 2, "seq-mean-token-mean")) == pytest.approx(
        5 / 2
    )
    # Masked tokens count nowhere, and a fully masked turn is not a turn.
    mask = torch.tensor([False, True, True, False])
    assert float(aggregate_loss(loss, mask, seq_id, 2, "token-mean")) == pytest.approx(1.0)
    assert float(aggregate_loss(loss, mask, seq_id, 2, "seq-mean-token-sum")) == pytest.approx(2.0)
    assert float(aggregate_loss(loss, mask, seq_id, 2, "seq-mean-token-mean")) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        aggregate_loss(loss, mask, seq_id, 2, "sum")

"""Turn-level credit: returns, advantages (TRLOO, GRPO, RLOO), and which turns are trained.

Everything here works on one prompt group: N trajectories (samples of one prompt), each a
list of turns, lengths may differ. Rewards come in as `rewards[i][t]`, the reward of turn t
of trajectory i, and advantages go out in the same ragged shape. Internally a group is a
padded [N, T] tensor plus a `present` mask, so the per-turn group statistics are column
sums. Read with "The method" in the design document (Dr. Kernel, arXiv 2602.05885):

    G[i][t]  = sum_{k >= t} gamma^(k - t) * r[i][k]           return-to-go
    TRLOO    A[i][t] = G[i][t] - mean_{j != i, j has turn t} G[j][t]   (A = G if none)
    GRPO     A[i][t] = G[i][t] - mean_{j has turn t} G[j][t]  (self-inclusive, ablation)
    RLOO     A[i][t] = R[i] - mean_{j != i} R[j],  R[i] = G[i][0] (one number per trajectory)

Self-inclusion shrinks GRPO's advantage by (N_t - 1) / N_t, where N_t is the number of
trajectories that reached turn t; later turns have fewer survivors, so GRPO under-credits
them most. TRLOO removes that bias. No standard-deviation normalisation (paper), except as
an explicit GRPO ablation.

The turn filters at the bottom (multi-turn rules, profiling-based rejection sampling,
zero-advantage groups) decide which turns reach the loss; they never change advantages.
"""

from __future__ import annotations

from typing import Optional, Sequence

import torch

Ragged = Sequence[Sequence[float]]


# ---------------------------------------------------------------------------------------
# Returns
# ---------------------------------------------------------------------------------------


def _pad(rewards: Ragged) -> tuple[torch.Tensor, torch.Tensor]:
    """Ragged rewards -> r [N, T] float64 (0 where absent), present [N, T] bool."""
    n = len(rewards)
    t_max = max((len(r) for r in rewards), default=0)
    r = torch.zeros(n, t_max, dtype=torch.float64)
    present = torch.zeros(n, t_max, dtype=torch.bool)
    for i, row in enumerate(rewards):
        r[i, : len(row)] = torch.as_tensor(list(row), dtype=torch.float64)
        present[i, : len(row)] = True
    return r, present


def _unpad(x: torch.Tensor, rewards: Ragged) -> list[list[float]]:
    return [x[i, : len(row)].tolist() for i, row in enumerate(rewards)]


def _returns_to_go(r: torch.Tensor, gamma: float) -> torch.Tensor:
    """G [N, T]: G[:, t] = r[:, t] + gamma * G[:, t + 1]; absent turns have r = 0."""
    g = torch.zeros_like(r)
    running = torch.zeros(r.shape[0], dtype=r.dtype)
    for t in reversed(range(r.shape[1])):
        running = r[:, t] + gamma * running
        g[:, t] = running
    return g


def returns_to_go(rewards: Ragged, gamma: float = 1.0) -> list[list[float]]:
    """Discounted return-to-go of every turn, same ragged shape as `rewards`."""
    r, _ = _pad(rewards)
    return _unpad(_returns_to_go(r, gamma), rewards)


# ---------------------------------------------------------------------------------------
# Advantage estimators
# ---------------------------------------------------------------------------------------


def trloo(rewards: Ragged, gamma: float = 1.0) -> list[list[float]]:
    """Turn-level REINFORCE leave-one-out (the paper's TRLOO).

    A[i][t] = G[i][t] - mean of G[j][t] over the other trajectories j that have a turn t;
    A[i][t] = G[i][t] when no other trajectory reached turn t (in particular when N = 1).
    """
    r, present = _pad(rewards)  # [N, T]
    g = _returns_to_go(r, gamma) * present  # [N, T], 0 where absent
    col_sum = g.sum(dim=0, keepdim=True)  # [1, T]
    col_n = present.sum(dim=0, keepdim=True)  # [1, T] = N_t
    others = (col_n - 1).clamp(min=1)  # [1, T]; guards N_t = 1
    baseline = torch.where(col_n > 1, (col_sum - g) / others, torch.zeros_like(g))
    return _unpad(g - baseline, rewards)


def grpo(
    rewards: Ragged, gamma: float = 1.0, normalize_std: bool = False, eps: float = 1e-6
) -> list[list[float]]:
    """GRPO with self-inclusion, per turn: A[i][t] = G[i][t] - mean_{j has t} G[j][t].

    With `normalize_std` the result is divided by (std_t + eps), the unbiased standard
    deviation of G over the N_t trajectories at turn t (0 when N_t = 1). For the ablation only.
    """
    r, present = _pad(rewards)  # [N, T]
    g = _returns_to_go(r, gamma) * present  # [N, T]
    col_n = present.sum(dim=0, keepdim=True).clamp(min=1)  # [1, T]
    mean = g.sum(dim=0, keepdim=True) / col_n  # [1, T]
    adv = (g - mean) * present  # [N, T]
    if normalize_std:
        var = (adv**2).sum(dim=0, keepdim=True) / (col_n - 1).clamp(min=1)
        adv = adv / (var.sqrt() + eps)
    return _unpad(adv, rewards)


def rloo(rewards: Ragged, gamma: float = 1.0) -> list[list[float]]:
    """Classic single-turn RLOO: one advantage per trajectory, given to each of its turns.

    R[i] = G[i][0], the discounted return of the whole trajectory; A[i] = R[i] - mean of R[j]
    over the other trajectories j that have a turn; A[i] = R[i] when there is none. An empty
    trajectory (its first turn got no verdict: nothing of it is trained) is left out of the
    baseline, as TRLOO and GRPO leave it out: an evaluator outage is no sibling's merit.
    """
    r, present = _pad(rewards)
    ret = _returns_to_go(r, gamma)[:, 0] if r.shape[1] else torch.zeros(r.shape[0], dtype=r.dtype)
    has = (present[:, 0] if r.shape[1] else torch.zeros_like(ret, dtype=torch.bool)).to(ret.dtype)
    ret = ret * has  # R [N]
    n = has.sum()
    baseline = torch.where(
        n - has > 0, (ret.sum() - ret) / (n - has).clamp(min=1), torch.zeros_like(ret)
    )
    adv = ret - baseline  # [N]
    return [[float(adv[i])] * len(row) for i, row in enumerate(rewards)]


def advantages(
    rewards: Ragged, estimator: str, gamma: float = 1.0, grpo_normalize_std: bool = False
) -> list[list[float]]:
    """Dispatch by name: 'trloo', 'grpo' or 'rloo' (AlgorithmConfig.estimator)."""
    if estimator == "trloo":
        return trloo(rewards, gamma)
    if estimator == "grpo":
        return grpo(rewards, gamma, normalize_std=grpo_normalize_std)
    if estimator == "rloo":
        return rloo(rewards, gamma)
    raise ValueError(f"unknown advantage estimator {estimator!r}")


# ---------------------------------------------------------------------------------------
# Hierarchical credit (TritonRL)
# ---------------------------------------------------------------------------------------


def plan_signal(
    correct: Sequence[Sequence[bool]], speedup: Sequence[Sequence[Optional[float]]], cap: float
) -> list[list[float]]:
    """The speed-aligned reward of a turn's plan tokens: min(speedup, cap) if correct, else 0.

    Hierarchical credit (our exact definition): a turn's code tokens [code_start, end) get
    the estimator's advantage of the turn reward (correctness + speed + coverage); its plan
    tokens [0, code_start) get plan_coef x the same estimator's advantage of this signal. A
    plan is thus credited for leading to fast correct code, and not for correctness that any
    plan would have reached. code_start = 0 makes every token a code token.
    """
    return [
        [min(s, cap) if ok and s is not None else 0.0 for ok, s in zip(c_row, s_row)]
        for c_row, s_row in zip(correct, speedup)
    ]


# ---------------------------------------------------------------------------------------
# Which turns are trained
# ---------------------------------------------------------------------------------------


def multi_turn_keep(
    correct: Sequence[bool], after_first_success: bool, failures_after_success: bool
) -> list[bool]:
    """Keep flags for the turns of one trajectory under the multi-turn rules.

    after_first_success: turns after the first correct one are dropped (only the path to
    the first success is taught). failures_after_success: an incorrect turn after a
    correct one is dropped (a regression is not taught), correct ones are kept.
    """
    keep, seen_success = [], False
    for ok in correct:
        drop = seen_success and (after_first_success or (failures_after_success and not ok))
        keep.append(not drop)
        seen_success = seen_success or ok
    return keep


def prs_keep_probability(coverage: torch.Tensor, threshold: float, factor: float) -> torch.Tensor:
    """p [M] = clamp((coverage - threshold) / factor, 0, 1): the keep chance of a correct turn."""
    return ((coverage - threshold) / factor).clamp(0.0, 1.0)


def profiling_rejection(
    correct: torch.Tensor,
    coverage: torch.Tensor,
    threshold: float,
    factor: float,
    generator: torch.Generator,
) -> tuple[torch.Tensor, float]:
    """Profiling-based rejection sampling (PRS) over M turns.

    correct [M] bool, coverage [M] float (NaN when unknown). A correct turn is kept with
    probability prs_keep_probability(coverage); an incorrect turn is always kept (its reward
    is already 0; PRS targets 'lazy' correct kernels); a correct turn with unknown coverage
    is kept, since there is nothing to judge it by. Draws come from `generator`, so a seed
    reproduces the mask. Returns keep [M] bool and the share of correct turns dropped.
    """
    u = torch.rand(correct.shape, generator=generator, dtype=torch.float64)
    p = prs_keep_probability(coverage.to(torch.float64), threshold, factor)
    judged = correct & ~torch.isnan(coverage)
    keep = ~judged | (u < p)
    n_correct = int(correct.sum())
    dropped = int((~keep).sum())
    return keep, (dropped / n_correct if n_correct else 0.0)


def is_zero_advantage(adv: Sequence[Sequence[float]], eps: float = 1e-9) -> bool:
    """True when every advantage of a group is (numerically) zero: no gradient, drop it."""
    return all(abs(a) <= eps for row in adv for a in row)

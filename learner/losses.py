"""Token-level math: mismatch rejection sampling, importance weights, the PPO loss, aggregation.

All tensors use one flat layout: the response tokens of every trained turn ("sequence")
of a step, concatenated. `seq_id [L]` maps each token to its sequence (0..S-1) and
`seq_traj [S]` maps each sequence to its trajectory (0..J-1), so per-turn and
per-trajectory statistics are `index_add_` reductions. Three policies appear:

    behaviour  pi_b   the actor (vLLM) that sampled the tokens: its logprobs travel with the data
    proximal   pi_p   the learner's weights at the start of this step (recomputed, no grad)
    current    pi     the weights being optimised (with grad)

With one optimizer step per batch, pi and pi_p hold the same weights; they differ in that
only pi carries a gradient. See "The method" in the design document (arXiv 2602.05885).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

import torch

AGGREGATIONS = ("token-mean", "seq-mean-token-sum", "seq-mean-token-mean")


# ---------------------------------------------------------------------------------------
# Mismatch rejection sampling (MRS)
# ---------------------------------------------------------------------------------------


@dataclass
class MRSResult:
    """Which sequences survive MRS, and why the others did not."""

    keep_seq: torch.Tensor  # [S] bool: sequence passes both rules
    traj_ratio: torch.Tensor  # [J] float: exp(mean token log-ratio) per trajectory
    traj_rejected: float  # share of trajectories (with tokens) outside [lower, upper]
    seq_vetoed: float  # share of sequences holding a vetoed token
    seq_rejected: float  # share of sequences dropped by either rule
    mismatch_kl: float  # k3 estimate of KL(pi_b || pi_p) per token
    log_ratio_mean: float  # mean over tokens of log pi_p - log pi_b


def mismatch_kl(learner_lp: torch.Tensor, actor_lp: torch.Tensor) -> float:
    """k3 estimator of KL(actor || learner) from actor samples: mean(e^d - 1 - d), d = lp_l - lp_a.

    Unbiased and never negative (Schulman's 'approximating KL'); 0 for identical policies.
    """
    if learner_lp.numel() == 0:
        return 0.0
    d = (learner_lp - actor_lp).double()
    return float((torch.expm1(d) - d).mean())


def mismatch_rejection(
    learner_lp: torch.Tensor,
    actor_lp: torch.Tensor,
    seq_id: torch.Tensor,
    seq_traj: torch.Tensor,
    n_traj: int,
    lower: float | torch.Tensor,
    upper: float | torch.Tensor,
    veto: Optional[float],
) -> MRSResult:
    """Mismatch rejection sampling over one step's tokens.

    learner_lp, actor_lp [L]: log pi_p and log pi_b of each token; seq_id [L]; seq_traj [S].
    Rule 1 (trajectory): exp(mean over the trajectory's tokens of log pi_p - log pi_b), the
    geometric mean of the token ratios, outside [lower, upper] drops every sequence of the
    trajectory; lower and upper are floats or [J] tensors (bounds per trajectory, e.g.
    wider for stale ones). Rule 2 (veto): a token with ratio pi_p / pi_b < veto drops its
    sequence.
    """
    n_seq = seq_traj.shape[0]
    delta = (learner_lp - actor_lp).double()  # [L]
    tok_traj = seq_traj[seq_id]  # [L]
    traj_sum = torch.zeros(n_traj, dtype=torch.float64).index_add_(0, tok_traj, delta)
    traj_cnt = torch.zeros(n_traj, dtype=torch.float64).index_add_(
        0, tok_traj, torch.ones_like(delta)
    )  # [J]
    traj_ratio = torch.exp(traj_sum / traj_cnt.clamp(min=1))  # [J]
    has_tokens = traj_cnt > 0
    traj_ok = ((traj_ratio >= lower) & (traj_ratio <= upper)) | ~has_tokens  # [J]
    vetoed = torch.zeros(n_seq, dtype=torch.bool)  # [S]
    if veto is not None:
        bad = (delta < math.log(veto)).double()  # [L]
        vetoed = torch.zeros(n_seq, dtype=torch.float64).index_add_(0, seq_id, bad) > 0
    keep = traj_ok[seq_traj] & ~vetoed  # [S]
    n_traj_tok = int(has_tokens.sum())
    return MRSResult(
        keep_seq=keep,
        traj_ratio=traj_ratio,
        traj_rejected=float((~traj_ok).sum()) / n_traj_tok if n_traj_tok else 0.0,
        seq_vetoed=float(vetoed.sum()) / n_seq if n_seq else 0.0,
        seq_rejected=float((~keep).sum()) / n_seq if n_seq else 0.0,
        mismatch_kl=mismatch_kl(learner_lp, actor_lp),
        log_ratio_mean=float(delta.mean()) if delta.numel() else 0.0,
    )


# ---------------------------------------------------------------------------------------
# The policy loss
# ---------------------------------------------------------------------------------------


def importance_weights(
    proximal_lp: torch.Tensor, behaviour_lp: torch.Tensor, cap: Optional[float]
) -> torch.Tensor:
    """w [L] = min(pi_p / pi_b, cap), no gradient: the truncated importance weight (TIS)."""
    w = torch.exp((proximal_lp - behaviour_lp).detach().float())
    return w.clamp(max=cap) if cap is not None else w


@dataclass
class PPOTerms:
    """Per-token PPO loss and where clipping acted."""

    loss: torch.Tensor  # [L] loss per token (to be weighted and summed)
    ratio: torch.Tensor  # [L] pi / pi_old, detached
    clipped: torch.Tensor  # [L] bool: the clipped surrogate was the active one
    dual_clipped: torch.Tensor  # [L] bool: the dual-clip cap was active (A < 0 only)


def ppo_token_loss(
    logp: torch.Tensor,
    old_lp: torch.Tensor,
    adv: torch.Tensor,
    clip_low: float,
    clip_high: float,
    dual_clip: Optional[float],
) -> PPOTerms:
    """PPO clipped surrogate with clip-higher and dual clip, per token.

    r = exp(logp - old_lp);  l = max(-A r, -A clip(r, 1 - clip_low, 1 + clip_high)).
    Clip-higher (DAPO) lets clip_high > clip_low so low-probability tokens can still rise.
    Dual clip (Ye et al. 2020), for A < 0 only: l = min(l, -c A), which bounds the loss
    (and zeroes the gradient) when r > c, so one stale token with a huge ratio cannot
    dominate the update.
    """
    ratio = torch.exp(logp - old_lp)  # [L]
    unclipped = -adv * ratio
    clipped = -adv * ratio.clamp(1.0 - clip_low, 1.0 + clip_high)
    loss = torch.maximum(unclipped, clipped)  # [L]
    was_clipped = clipped > unclipped
    dual = torch.zeros_like(was_clipped)
    if dual_clip is not None:
        cap = -adv * dual_clip
        dual = (adv < 0) & (loss > cap)
        loss = torch.where(dual, cap, loss)
    return PPOTerms(loss, ratio.detach(), was_clipped, dual)


def policy_loss(
    logp: torch.Tensor,
    behaviour_lp: torch.Tensor,
    proximal_lp: torch.Tensor,
    adv: torch.Tensor,
    decoupled: bool,
    is_cap: Optional[float],
    clip_low: float,
    clip_high: float,
    dual_clip: Optional[float],
) -> tuple[PPOTerms, torch.Tensor]:
    """Per-token policy loss [L] and the importance weights [L] used.

    Decoupled PPO (Hilton et al. 2022): w * PPO(pi / pi_p), w = min(pi_p / pi_b, is_cap);
    the clip then bounds the step away from the learner's own weights, and w corrects for
    the actor having sampled from pi_b (stale version, other numerics). Coupled:
    PPO(pi / pi_b), clipping against the actor directly, w = 1.
    """
    if decoupled:
        w = importance_weights(proximal_lp, behaviour_lp, is_cap)
        terms = ppo_token_loss(logp, proximal_lp.detach(), adv, clip_low, clip_high, dual_clip)
    else:
        w = torch.ones_like(adv)
        terms = ppo_token_loss(logp, behaviour_lp, adv, clip_low, clip_high, dual_clip)
    terms.loss = terms.loss * w
    return terms, w


# ---------------------------------------------------------------------------------------
# Aggregation
# ---------------------------------------------------------------------------------------


def loss_token_weights(
    mask: torch.Tensor, seq_id: torch.Tensor, n_seq: int, mode: str
) -> tuple[torch.Tensor, float]:
    """Per-token weights w [L] and a denominator D with loss = sum(w * token_loss) / D.

    token-mean:          w = mask,               D = kept tokens      (long turns weigh more)
    seq-mean-token-sum:  w = mask,               D = kept sequences   (Dr. Kernel recipe; the
                         REINFORCE sum over a turn's tokens, averaged over turns; its scale
                         grows with turn length, so the learning rate is tuned with it)
    seq-mean-token-mean: w = mask / kept_len[s], D = kept sequences   (every turn weighs the
                         same whatever its length)
    Splitting the step into micro-batches then only needs the step-wide D (summed over ranks).
    """
    if mode not in AGGREGATIONS:
        raise ValueError(f"unknown loss aggregation {mode!r}; expected one of {AGGREGATIONS}")
    m = mask.float()  # [L]
    kept_len = torch.zeros(n_seq).index_add_(0, seq_id, m)  # [S]
    n_kept_seq = float((kept_len > 0).sum())
    if mode == "token-mean":
        return m, float(m.sum())
    if mode == "seq-mean-token-sum":
        return m, n_kept_seq
    return m / kept_len.clamp(min=1)[seq_id], n_kept_seq


def aggregate_loss(
    token_loss: torch.Tensor, mask: torch.Tensor, seq_id: torch.Tensor, n_seq: int, mode: str
) -> torch.Tensor:
    """One scalar from per-token losses [L] under `mode` (see loss_token_weights); 0 if empty."""
    w, denom = loss_token_weights(mask, seq_id, n_seq, mode)
    return (w * token_loss).sum() / max(denom, 1.0)

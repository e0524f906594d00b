"""What the trainer consumes and how it is cut into micro-batches.

The trainer consumes the wire message itself: a `TrajectoryGroup` (common/messages.py), the
N trajectories of one prompt, each a list of `Turn`s with their `Verdict` (common/verdict.py),
as the hub stored it; nothing re-shapes it. `build_samples` applies the turn-level algorithm
(advantages, multi-turn rules, PRS, zero-advantage groups; learner/advantages.py) and flattens
the surviving turns into `Sample`s, one per turn: prompt + response token ids, the actor's
logprobs and a per-token advantage. `plan_micro_batches` bins samples under a token
budget and `collate` turns a bin into model inputs: one packed row whose position ids
restart at every turn (Hugging Face models then attend block-diagonally, with sdpa or
eager attention on the CPU as with flash-attention varlen on a GPU), or padded rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Optional, Sequence

import torch

from common.config.learner import AlgorithmConfig
from common.messages import Trajectory, TrajectoryGroup, Turn
from common.verdict import STATUSES
from learner import advantages as adv_fns
from learner.stats import Stats

# Fast@p (the paper's headline metric): a turn counts when it is correct and more than p
# times faster than the reference. Exported per turn as step stats `fast@1`, `fast@1.2`.
FAST_THRESHOLDS = (1.0, 1.2)
# Each turn's share of every verdict status (common/verdict.py's STATUSES) is a step stat
# `status_<s>_turn<t>` (`status_hack_turn0`: hacks attempted at turn 1; they earn 0, so none
# is ever rewarded).


@dataclass
class Sample:
    """One trained turn, flattened: what a micro-batch row is made of."""

    input_ids: torch.Tensor  # [P + R] int64: prompt then response
    prompt_len: int  # P >= 1
    actor_lp: torch.Tensor  # [R] float32
    advantages: torch.Tensor  # [R] float32: per token (plan and code may differ)
    versions: torch.Tensor  # [R] int32
    traj: int  # trajectory index within the step
    turn: int  # turn index within the trajectory
    learner_lp: Optional[torch.Tensor] = field(default=None, repr=False)  # [R], filled later

    @property
    def response_len(self) -> int:
        return self.input_ids.shape[0] - self.prompt_len


def _usable_turns(traj: Trajectory) -> list[Turn]:
    """Turns up to the first unevaluated one: later turns saw no feedback for it, and its
    own reward is unknown, so the trajectory is treated as ending there."""
    out = []
    for turn in traj.turns:
        if not turn.verdict.judged:
            break
        out.append(turn)
    return out


def _record_turn_stats(stats: Stats, groups: Sequence[TrajectoryGroup]) -> None:
    for group in groups:
        for traj in group.trajectories:
            for t, turn in enumerate(traj.turns):
                stats.add("turns_unevaluated_frac", float(not turn.verdict.judged))
                if not turn.verdict.judged:
                    continue
                v = turn.verdict
                stats.add(f"reward_turn{t}", v.reward)
                stats.add(f"correct_turn{t}", float(v.correct))
                stats.add("reward", v.reward)
                stats.add("correct", float(v.correct))
                for status in STATUSES:
                    stats.add(f"status_{status}_turn{t}", float(v.status == status))
                if v.status == "hack":
                    stats.total("hacks_rewarded", float(v.reward > 0))
                # The policy's entropy per token, estimated by the mean surprisal of the
                # tokens it sampled (E_x~p[-log p(x)]; the actor's logprobs, no extra pass).
                if turn.logprobs.numel():
                    stats.add(
                        f"entropy_turn{t}",
                        float(-turn.logprobs.double().mean()),
                        weight=turn.logprobs.numel(),
                    )
                    stats.add(
                        "entropy",
                        float(-turn.logprobs.double().mean()),
                        weight=turn.logprobs.numel(),
                    )
                for p in FAST_THRESHOLDS:
                    fast = v.correct and v.speedup is not None and v.speedup > p
                    stats.add(f"fast@{p:g}_turn{t}", float(fast))
                if v.correct and v.speedup is not None:
                    stats.add(f"speedup_turn{t}", v.speedup)
                if v.correct and v.coverage is not None:
                    stats.add(f"coverage_turn{t}", v.coverage)


def _token_advantages(turn: Turn, code_adv: float, plan_adv: Optional[float]) -> torch.Tensor:
    n = turn.response_ids.shape[0]
    adv = torch.full((n,), code_adv, dtype=torch.float32)
    if plan_adv is not None:
        adv[: min(max(turn.code_start, 0), n)] = plan_adv
    return adv


def build_samples(
    groups: Sequence[TrajectoryGroup],
    cfg: AlgorithmConfig,
    generator: torch.Generator,
    stats: Stats,
) -> list[Sample]:
    """Advantages per group, then the turn filters; one Sample per turn that is trained."""
    _record_turn_stats(stats, groups)
    candidates: list[tuple[Turn, int, int, float, Optional[float]]] = []
    n_traj = 0
    for group in groups:
        trajs = [_usable_turns(tr) for tr in group.trajectories]
        rewards = [[turn.verdict.reward for turn in turns] for turns in trajs]
        adv = adv_fns.advantages(rewards, cfg.estimator, cfg.gamma, cfg.grpo_normalize_std)
        plan = None
        if cfg.hierarchical.enabled:
            signal = adv_fns.plan_signal(
                [[tu.verdict.correct for tu in turns] for turns in trajs],
                [[tu.verdict.speedup for tu in turns] for turns in trajs],
                cfg.hierarchical.speedup_cap,
            )
            plan = adv_fns.advantages(signal, cfg.estimator, cfg.gamma, cfg.grpo_normalize_std)
            plan = [[cfg.hierarchical.plan_coef * a for a in row] for row in plan]
        zero = adv_fns.is_zero_advantage(adv) and (plan is None or adv_fns.is_zero_advantage(plan))
        stats.add("groups_zero_advantage_frac", float(zero))
        if zero and cfg.drop_zero_advantage_groups:
            continue
        for i, turns in enumerate(trajs):
            keep = adv_fns.multi_turn_keep(
                [tu.verdict.correct for tu in turns],
                cfg.mask_after_first_success,
                cfg.mask_failures_after_success,
            )
            for t, turn in enumerate(turns):
                stats.add("turns_multi_turn_masked_frac", float(not keep[t]))
                if keep[t]:
                    candidates.append(
                        (turn, n_traj + i, t, adv[i][t], plan[i][t] if plan is not None else None)
                    )
        n_traj += len(trajs)
    keep = _prs(candidates, cfg, generator, stats)
    samples = []
    for (turn, traj, t, code_adv, plan_adv), kept in zip(candidates, keep):
        if not kept or turn.response_ids.numel() == 0:
            continue
        if turn.prompt_ids.numel() == 0:
            raise ValueError("a turn has an empty prompt; its first token cannot be scored")
        if turn.logprobs.numel() != turn.response_ids.numel():
            raise ValueError(
                f"a turn has {turn.logprobs.numel()} logprobs for "
                f"{turn.response_ids.numel()} response tokens"
            )
        token_adv = _token_advantages(turn, code_adv, plan_adv)
        stats.add_many("advantage", token_adv)
        samples.append(
            Sample(
                input_ids=torch.cat([turn.prompt_ids, turn.response_ids]).long(),
                prompt_len=int(turn.prompt_ids.numel()),
                actor_lp=turn.logprobs.float(),
                advantages=token_adv,
                versions=turn.versions,
                traj=traj,
                turn=t,
            )
        )
    return samples


def _prs(
    candidates: list, cfg: AlgorithmConfig, generator: torch.Generator, stats: Stats
) -> list[bool]:
    if not cfg.prs.enabled or not candidates:
        return [True] * len(candidates)
    correct = torch.tensor([c[0].verdict.correct for c in candidates])
    coverage = torch.tensor(
        [math.nan if c[0].verdict.coverage is None else c[0].verdict.coverage for c in candidates],
        dtype=torch.float64,
    )
    keep, _ = adv_fns.profiling_rejection(
        correct, coverage, cfg.prs.threshold, cfg.prs.factor, generator
    )
    for ok, kept in zip(correct.tolist(), keep.tolist()):
        if ok:
            stats.add("prs_rejected_frac", float(not kept))
    return keep.tolist()


def group_tokens(group: TrajectoryGroup) -> int:
    """Prompt + response tokens of a group: the work it costs to train on."""
    return sum(
        int(t.prompt_ids.numel() + t.response_ids.numel())
        for tr in group.trajectories
        for t in tr.turns
    )


def shard_groups(groups: Sequence[TrajectoryGroup], world_size: int) -> list[list[TrajectoryGroup]]:
    """Split whole groups over learner ranks, largest first to the least-loaded rank.

    A group never spans ranks: its advantages and MRS trajectories are computed locally.
    """
    shards: list[list[TrajectoryGroup]] = [[] for _ in range(world_size)]
    load = [0] * world_size
    for g in sorted(groups, key=group_tokens, reverse=True):
        r = load.index(min(load))
        shards[r].append(g)
        load[r] += group_tokens(g)
    return shards


# ---------------------------------------------------------------------------------------
# Micro-batches
# ---------------------------------------------------------------------------------------


def plan_micro_batches(lengths: Sequence[int], token_budget: int, packing: bool) -> list[list[int]]:
    """Bin sample indices so each bin's cost is <= token_budget (a longer sample alone).

    Packed cost is the sum of lengths (first-fit decreasing); padded cost is rows x longest
    row (longest first, so each bin is a run of similar lengths). Every index appears once.
    """
    order = sorted(range(len(lengths)), key=lambda i: -lengths[i])
    bins: list[list[int]] = []
    if packing:
        room: list[int] = []
        for i in order:
            for b, free in enumerate(room):
                if lengths[i] <= free:
                    bins[b].append(i)
                    room[b] -= lengths[i]
                    break
            else:
                bins.append([i])
                room.append(token_budget - lengths[i])
        return bins
    for i in order:
        if bins and (len(bins[-1]) + 1) * lengths[bins[-1][0]] <= token_budget:
            bins[-1].append(i)
        else:
            bins.append([i])
    return bins


@dataclass
class MicroBatch:
    """Model inputs for some samples, and where their response tokens sit."""

    input_ids: torch.Tensor  # [B, T] int64
    position_ids: torch.Tensor  # [B, T] int64, restarting at 0 for every sample
    attention_mask: Optional[torch.Tensor]  # [B, T] for padded rows; None when packed
    rows: torch.Tensor  # [K] row of each position whose logits predict a response token
    cols: torch.Tensor  # [K] its column
    targets: torch.Tensor  # [K] the response token it predicts
    samples: list[int]  # indices of the samples in this micro-batch, in order
    response_lens: list[int]  # their response lengths; K = sum(response_lens)

    @property
    def n_tokens(self) -> int:
        return int(
            self.input_ids.numel() if self.attention_mask is None else self.attention_mask.sum()
        )


def collate(samples: Sequence[Sample], indices: list[int], packing: bool) -> MicroBatch:
    """Build a MicroBatch from samples[indices]."""
    seqs = [samples[i].input_ids for i in indices]
    prompt_lens = [samples[i].prompt_len for i in indices]
    rows, cols, targets = [], [], []
    if packing:
        input_ids = torch.cat(seqs)[None]
        position_ids = torch.cat([torch.arange(len(s)) for s in seqs])[None]
        mask, offset = None, 0
        for s, p in zip(seqs, prompt_lens):
            cols.append(torch.arange(offset + p - 1, offset + len(s) - 1))
            rows.append(torch.zeros(len(s) - p, dtype=torch.long))
            targets.append(s[p:])
            offset += len(s)
    else:
        width = max(len(s) for s in seqs)
        input_ids = torch.zeros(len(seqs), width, dtype=torch.long)
        mask = torch.zeros(len(seqs), width, dtype=torch.long)
        for r, (s, p) in enumerate(zip(seqs, prompt_lens)):
            input_ids[r, : len(s)] = s
            mask[r, : len(s)] = 1
            cols.append(torch.arange(p - 1, len(s) - 1))
            rows.append(torch.full((len(s) - p,), r, dtype=torch.long))
            targets.append(s[p:])
        position_ids = torch.arange(width).expand(len(seqs), width).contiguous()
    return MicroBatch(
        input_ids,
        position_ids,
        mask,
        torch.cat(rows),
        torch.cat(cols),
        torch.cat(targets),
        list(indices),
        [len(s) - p for s, p in zip(seqs, prompt_lens)],
    )

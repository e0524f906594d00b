"""What makes a TrajectoryGroup trainable: the hub's checks before it acks a group
(learner/hub.py) and the learner's again before it trains one (learner/main.py).

A group that passes is one the trainer can take without crashing or learning from
nonsense: ids the store can name a file by (common/ids.py); per turn, 1-D token ids of an
integer type inside the model's vocabulary, one logprob (floating, finite, not above 0)
and one policy version (from 0 to the hub's version: no actor holds a newer one) per
response token, a code start inside the response, finite reward and metrics; per group,
no more samples than a lease asks for, each once, no more turns than a lease allows, and
no more evaluations than turns. A group that fails is acked `rejected` with the reason and
never stored; one that passed once and went bad on disk is quarantined before training.
"""

from __future__ import annotations

import math
from typing import Optional

import torch

from common.ids import id_error
from common.messages import TrajectoryGroup, Turn

# A logprob is never above 0; this much above it is float rounding, not a bad peer.
LOGPROB_SLACK = 1e-3


def group_id_error(group: TrajectoryGroup) -> str:
    """Why the group's ids are unusable ("" if they are not); the group id names its file
    in the store."""
    for name in ("group_id", "lease_id", "actor_id", "prompt_id"):
        problem = id_error(name, getattr(group, name), names_a_file=name == "group_id")
        if problem:
            return problem
    return ""


def group_error(
    group: TrajectoryGroup,
    vocab_size: Optional[int] = None,
    max_version: Optional[int] = None,
    n_samples: Optional[int] = None,
    max_turns: Optional[int] = None,
) -> str:
    """Why the group cannot be trained on ("" if it can): see the module docstring. The
    bounds left None are not checked (a stored group is checked again without the lease
    shape: the run's config may have changed since it was acked)."""
    problem = group_id_error(group) or _shape_error(group, n_samples, max_turns)
    if problem:
        return problem
    for tr in group.trajectories:
        for i, t in enumerate(tr.turns):
            problem = turn_error(t, vocab_size, max_version)
            if problem:
                return f"sample {tr.sample_index} turn {i}: {problem}"
    return ""


def _shape_error(group: TrajectoryGroup, n_samples: Optional[int], max_turns: Optional[int]) -> str:
    """Why the group's samples and turns are not the shape of a lease's answer."""
    if not group.trajectories:
        return "group has no trajectories"
    indices = [tr.sample_index for tr in group.trajectories]
    if len(set(indices)) != len(indices):
        return f"sample indices repeat: {sorted(indices)[:16]}"
    if n_samples is not None and max(indices) >= n_samples:
        return (
            f"{len(indices)} samples, indices up to {max(indices)} (a lease asks for {n_samples})"
        )
    turns = [len(tr.turns) for tr in group.trajectories]
    if max_turns is not None and max(turns) > max_turns:
        return f"a sample has {max(turns)} turns (a lease allows {max_turns})"
    if group.evaluations > sum(turns):
        return f"{group.evaluations} evaluations for {sum(turns)} turns"
    return ""


def turn_error(t: Turn, vocab_size: Optional[int] = None, max_version: Optional[int] = None) -> str:
    """Why one turn cannot be trained on ("" if it can)."""
    problem = _tensor_error(t)
    if problem:
        return problem
    n = t.response_ids.numel()
    if n and not t.prompt_ids.numel():
        return "empty prompt (its first response token cannot be scored)"
    for ids in (t.prompt_ids, t.response_ids):
        if ids.numel() and (
            int(ids.min()) < 0 or (vocab_size is not None and int(ids.max()) >= vocab_size)
        ):
            return (
                f"token id out of the vocabulary "
                f"({int(ids.min())}..{int(ids.max())}, vocabulary {vocab_size})"
            )
    if n and not bool(t.logprobs.isfinite().all()):
        return "a logprob is not finite"
    if n and float(t.logprobs.max()) > LOGPROB_SLACK:
        return f"a logprob is above 0 ({float(t.logprobs.max()):.4g})"
    if n and (
        int(t.versions.min()) < 0
        or (max_version is not None and int(t.versions.max()) > max_version)
    ):
        return (
            f"token versions {int(t.versions.min())}..{int(t.versions.max())}"
            f" outside 0..{max_version}"
        )
    if t.code_start > n:
        return f"code starts at token {t.code_start} of a {n}-token response"
    for name in ("reward", "speedup", "coverage"):
        value = getattr(t.verdict, name)
        if value is not None and not math.isfinite(value):
            return f"{name} is not finite"
    return ""


def _tensor_error(t: Turn) -> str:
    """Why the turn's tensors are not four 1-D ones, of integer token ids and versions and
    floating logprobs, with one logprob and one version per response token."""
    for name in ("prompt_ids", "response_ids", "logprobs", "versions"):
        x = getattr(t, name)
        integral = name != "logprobs"
        if x.dim() != 1:
            return f"{name} has shape {list(x.shape)} (1-D expected)"
        if integral and (x.dtype.is_floating_point or x.dtype == torch.bool):
            return f"{name} is {x.dtype} (an integer type expected)"
        if not integral and not x.dtype.is_floating_point:
            return f"{name} is {x.dtype} (a floating type expected)"
    n = t.response_ids.numel()
    if t.logprobs.numel() != n or t.versions.numel() != n:
        return (
            f"{n} response tokens but "
            f"{t.logprobs.numel()} logprobs and {t.versions.numel()} versions"
        )
    return ""

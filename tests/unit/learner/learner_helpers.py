"""Helpers for learner tests: a tiny random Qwen2 model on disk and synthetic groups."""

from __future__ import annotations

import random
from contextlib import contextmanager

import torch

from common.messages import Trajectory, TrajectoryGroup, Turn
from common.verdict import Verdict

VOCAB = 512


def make_tiny_model(path) -> str:
    """A 2-layer random Qwen2 (hidden 64, 2 heads of 32, vocab 512) saved to `path`."""
    from transformers import Qwen2Config, Qwen2ForCausalLM

    cfg = Qwen2Config(
        vocab_size=VOCAB,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=32,
        max_position_embeddings=1024,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    Qwen2ForCausalLM(cfg).save_pretrained(path)
    return str(path)


@contextmanager
def without_zero3_loading():
    """A live ZeRO-3 Trainer (a test's own, or an earlier one not yet collected) makes every
    from_pretrained in the process load partitioned (empty) parameters; a reference model
    loaded to compare against must be whole."""
    from transformers.integrations import deepspeed as hf_deepspeed

    saved = hf_deepspeed._hf_deepspeed_config_weak_ref
    hf_deepspeed.unset_hf_deepspeed_config()
    try:
        yield
    finally:
        hf_deepspeed._hf_deepspeed_config_weak_ref = saved


def random_turn(
    rng: random.Random, prompt_len: int, response_len: int, code_start: int = 0, **verdict
) -> Turn:
    """A turn with random token ids, made-up actor logprobs and a verdict (Verdict's fields;
    reward, status, correct, speedup and coverage drawn or defaulted)."""
    return Turn(
        prompt_ids=torch.tensor(
            [rng.randrange(VOCAB) for _ in range(prompt_len)], dtype=torch.int32
        ),
        response_ids=torch.tensor(
            [rng.randrange(VOCAB) for _ in range(response_len)], dtype=torch.int32
        ),
        logprobs=torch.full((response_len,), -6.0),
        versions=torch.zeros(response_len, dtype=torch.int32),
        verdict=Verdict(
            reward=verdict.pop("reward", rng.random()),
            status=verdict.pop("status", "ok"),
            correct=verdict.pop("correct", True),
            speedup=verdict.pop("speedup", 1.0),
            coverage=verdict.pop("coverage", 1.0),
            **verdict,
        ),
        code_start=code_start,
    )


def group_of(
    trajectories: list[list[Turn]], group_id: str = "g", prompt_id: str = "p", problem: str = "toy"
) -> TrajectoryGroup:
    """The wire group the hub hands the trainer, holding these trajectories' turns."""
    return TrajectoryGroup(
        request_id=f"r-{group_id}",
        group_id=group_id,
        lease_id=f"l-{group_id}",
        prompt_id=prompt_id,
        problem_name=problem,
        actor_id="test",
        trajectories=[
            Trajectory(sample_index=i, turns=turns) for i, turns in enumerate(trajectories)
        ],
    )


def random_groups(
    seed: int, n_groups: int = 2, n_samples: int = 3, max_turns: int = 2, max_len: int = 12
) -> list[TrajectoryGroup]:
    rng = random.Random(seed)
    groups = []
    for g in range(n_groups):
        trajs = [
            [
                random_turn(rng, rng.randint(1, max_len), rng.randint(1, max_len))
                for _ in range(rng.randint(1, max_turns))
            ]
            for _ in range(n_samples)
        ]
        groups.append(group_of(trajs, group_id=f"g{g}", prompt_id=f"p{g}"))
    return groups

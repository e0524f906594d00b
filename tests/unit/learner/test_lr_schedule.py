"""The trainer's learning-rate schedule: linear warm-up and linear decay (an SFT cold start
decays to 0 over its steps)."""

import random

import pytest
from learner_helpers import random_turn

from common.config.learner import LearnerConfig
from learner.batch import Sample


def _samples(rng) -> list[Sample]:
    import torch

    t = random_turn(rng, 6, 8)
    return [
        Sample(
            input_ids=torch.cat([t.prompt_ids, t.response_ids]).long(),
            prompt_len=6,
            actor_lp=t.logprobs,
            advantages=torch.zeros(8),
            versions=t.versions,
            traj=0,
            turn=0,
        )
    ]


@pytest.mark.parametrize(
    "warmup,decay,expected",
    [
        (0, 4, [1.0, 0.75, 0.5, 0.25, 0.0]),
        (2, 4, [0.5, 0.75, 0.5, 0.25, 0.0]),
    ],
)
def test_lr_follows_warmup_and_linear_decay(tiny_model, warmup, decay, expected):
    from learner.trainer import Trainer

    cfg = LearnerConfig.model_validate(
        {
            "lr": 1e-2,
            "trainer": {
                "model": tiny_model,
                "zero_stage": 0,
                "warmup_steps": warmup,
                "decay_steps": decay,
            },
        }
    )
    trainer = Trainer(cfg, seed=0)
    rng = random.Random(0)
    lrs = [trainer.sft_step(_samples(rng))["lr"] for _ in expected]
    assert lrs == pytest.approx([1e-2 * f for f in expected])

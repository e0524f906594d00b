"""What a user watches to see learning: per-turn verdict shares, hacks rewarded, entropy,
KL to the starting policy, and the per-turn rows of progress.json's history."""

import random

import pytest
import torch
from learner_helpers import group_of, random_turn

from common.config import ConfigError, RunConfig, load
from common.config.learner import AlgorithmConfig, LearnerConfig
from learner.batch import build_samples
from learner.stats import Stats, learning_by_turn


def _stats(trajs) -> dict:
    stats = Stats()
    build_samples([group_of(trajs)], AlgorithmConfig(), torch.Generator(), stats)
    return stats.to_dict()


def test_verdict_shares_per_turn_count_hacks_attempted_and_never_rewarded():
    rng = random.Random(0)
    verdicts = [
        dict(status="ok", correct=True, reward=1.2),
        dict(status="hack", correct=False, reward=0.0),
        dict(status="incorrect", correct=False, reward=0.0),
        dict(status="compile_error", correct=False, reward=0.0),
    ]
    trajs = [
        [random_turn(rng, 4, 4, **v), random_turn(rng, 4, 4, status="ok", correct=True, reward=1.0)]
        for v in verdicts
    ]
    out = _stats(trajs)
    assert out["status_ok_turn0"] == 0.25
    assert out["status_hack_turn0"] == 0.25
    assert out["status_incorrect_turn0"] == 0.25
    assert out["status_compile_error_turn0"] == 0.25
    assert out["status_timeout_turn0"] == 0.0
    assert out["status_ok_turn1"] == 1.0 and out["status_hack_turn1"] == 0.0
    assert out["hacks_rewarded"] == 0.0


def test_a_rewarded_hack_is_counted():
    rng = random.Random(1)
    trajs = [
        [random_turn(rng, 4, 4, status="hack", correct=False, reward=0.7)],
        [random_turn(rng, 4, 4, status="ok", correct=True, reward=1.0)],
    ]
    assert _stats(trajs)["hacks_rewarded"] == 1.0


def test_entropy_is_the_mean_surprisal_of_the_sampled_tokens_per_turn():
    rng = random.Random(2)
    a, b = random_turn(rng, 4, 2), random_turn(rng, 4, 6)
    a.logprobs = torch.tensor([-1.0, -3.0])  # mean surprisal 2
    b.logprobs = torch.full((6,), -0.5)  # mean surprisal 0.5
    out = _stats([[a], [b]])
    assert out["entropy_turn0"] == pytest.approx((2 * 2.0 + 6 * 0.5) / 8)  # per token
    assert out["entropy"] == pytest.approx(out["entropy_turn0"])


def test_learning_by_turn_groups_step_stats_by_turn_in_order():
    stats = {
        "reward": 0.7,
        "reward_turn1": 0.9,
        "reward_turn0": 0.5,
        "correct_turn0": 0.25,
        "fast@1_turn0": 0.0,
        "status_ok_turn0": 0.25,
        "status_hack_turn0": 0.5,
        "status_timeout_turn0": 0.0,
        "kl_to_start_turn0": 0.01,
        "speedup_turn0": 0.1,
    }
    rows = learning_by_turn(stats)
    assert [r["reward"] for r in rows] == [0.5, 0.9]
    assert rows[0]["status"] == {"ok": 0.25, "hack": 0.5}  # zero shares left out
    assert rows[0]["correct"] == 0.25 and rows[0]["kl_to_start"] == 0.01
    assert "speedup" not in rows[0]


def test_learning_rate_zero_is_a_valid_control_and_kl_to_start_refuses_zero3():
    assert LearnerConfig(lr=0).lr == 0
    with pytest.raises(ConfigError, match="kl_to_start"):
        load(None, ["learner.kl_to_start=true", "learner.trainer.zero_stage=3"], RunConfig)
    with pytest.raises(ConfigError):
        load(None, ["learner.lr=-1e-4"], RunConfig)


def test_kl_to_start_is_zero_before_training_and_grows_with_updates(tiny_model):
    from learner.trainer import Trainer

    cfg = LearnerConfig.model_validate(
        {
            "lr": 1e-2,
            "kl_to_start": True,
            "trainer": {"model": tiny_model, "zero_stage": 0, "micro_batch_tokens": 256},
            "algorithm": {"mrs": {"enabled": False}},
        }
    )
    trainer = Trainer(cfg, seed=0)
    rng = random.Random(3)
    groups = [group_of([[random_turn(rng, 6, 8, reward=float(i % 2))] for i in range(4)])]
    kls = []
    for _ in range(4):
        for traj in groups[0].trajectories:  # the current policy's logprobs, as an actor's
            turn = traj.turns[0]
            turn.logprobs = trainer.compute_logprobs([(turn.prompt_ids, turn.response_ids)])[0]
        kls.append(trainer.train_step(groups)["kl_to_start"])
    assert kls[0] == pytest.approx(0.0, abs=1e-9)
    assert kls[-1] > 1e-4

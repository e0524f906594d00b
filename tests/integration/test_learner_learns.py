"""The learner learns: real DeepSpeed (ZeRO-2) on the CPU, a tiny model and a toy reward.

An in-test "actor" (a plain Hugging Face copy of the policy, refreshed each step from
Trainer.state_dict_for_publish, as real actors are) samples two-turn episodes; the reward
of a turn is the share of its response tokens in a target set (1/8 of the vocabulary, so
a random model scores about 0.125). With TRLOO, MRS at the paper's on-policy bounds, PRS
and the PPO loss all on, the mean reward must rise well above where it started.
"""

from __future__ import annotations

import statistics

import torch
from transformers import AutoModelForCausalLM, Qwen2Config, Qwen2ForCausalLM

from common.config.learner import LearnerConfig
from common.messages import Trajectory, TrajectoryGroup, Turn
from common.verdict import Verdict
from learner.trainer import Trainer

VOCAB, TARGET_IDS, RESPONSE_LEN = 512, 64, 8
N_SAMPLES, GROUPS_PER_STEP, STEPS = 8, 4, 20


def _tiny_model(path) -> str:
    cfg = Qwen2Config(
        vocab_size=VOCAB,
        hidden_size=64,
        intermediate_size=128,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=32,
        max_position_embeddings=256,
        tie_word_embeddings=True,
    )
    torch.manual_seed(0)
    Qwen2ForCausalLM(cfg).save_pretrained(path)
    return str(path)


@torch.no_grad()
def _sample(actor, prompts: torch.Tensor, gen: torch.Generator):
    """Sample RESPONSE_LEN tokens for each row of prompts [B, P]; ids and logprobs [B, R]."""
    ids, logprobs = prompts, []
    for _ in range(RESPONSE_LEN):
        logits = actor(ids, use_cache=False).logits[:, -1].float()
        lp = logits.log_softmax(-1)
        tok = torch.multinomial(lp.exp(), 1, generator=gen)
        logprobs.append(lp.gather(-1, tok))
        ids = torch.cat([ids, tok], dim=1)
    return ids[:, prompts.shape[1] :], torch.cat(logprobs, dim=1)


def _turn(prompt, response, logprobs) -> Turn:
    reward = float((response < TARGET_IDS).float().mean())
    return Turn(
        prompt_ids=prompt.int(),
        response_ids=response.int(),
        logprobs=logprobs.float(),
        versions=torch.zeros(RESPONSE_LEN, dtype=torch.int32),
        verdict=Verdict(
            "ok", correct=reward >= 0.5, speedup=1.0 + reward, reward=reward, coverage=1.0
        ),
    )


def _episodes(actor, gen: torch.Generator, step: int) -> list[TrajectoryGroup]:
    """Two-turn episodes: turn 1 sees turn 0's prompt and answer plus a feedback token."""
    prompts = torch.randint(TARGET_IDS, VOCAB, (GROUPS_PER_STEP, 4), generator=gen)
    p0 = prompts.repeat_interleave(N_SAMPLES, dim=0)  # [G*N, 4]
    r0, lp0 = _sample(actor, p0, gen)
    p1 = torch.cat([p0, r0, torch.full((p0.shape[0], 1), VOCAB - 1)], dim=1)
    r1, lp1 = _sample(actor, p1, gen)
    groups = []
    for g in range(GROUPS_PER_STEP):
        rows = range(g * N_SAMPLES, (g + 1) * N_SAMPLES)
        trajs = [
            Trajectory(
                sample_index=i, turns=[_turn(p0[i], r0[i], lp0[i]), _turn(p1[i], r1[i], lp1[i])]
            )
            for i in rows
        ]
        groups.append(
            TrajectoryGroup(
                request_id=f"{step}-{g}",
                group_id=f"{step}-{g}",
                lease_id=f"{step}-{g}",
                prompt_id=f"{step}-{g}",
                problem_name="toy",
                actor_id="test",
                trajectories=trajs,
            )
        )
    return groups


def test_mean_reward_rises_with_trloo_mrs_and_deepspeed(tmp_path):
    model_dir = _tiny_model(tmp_path / "tiny")
    cfg = LearnerConfig.model_validate(
        {
            "lr": 1e-2,
            "trainer": {"model": model_dir, "zero_stage": 2, "micro_batch_tokens": 256},
            "algorithm": {"estimator": "trloo"},
        }
    )
    trainer = Trainer(cfg, seed=0)
    actor = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32).eval()
    gen = torch.Generator().manual_seed(0)
    history = []
    for step in range(STEPS):
        missing, unexpected = actor.load_state_dict(
            dict(trainer.state_dict_for_publish()), strict=False
        )
        assert not unexpected and set(missing) <= {"lm_head.weight"}  # tied to embeddings
        stats = trainer.train_step(_episodes(actor, gen, step))
        history.append(stats)

    def mean_of(key, steps):
        return statistics.mean(s[key] for s in steps if key in s)

    first, last = mean_of("reward", history[:3]), mean_of("reward", history[-3:])
    assert first < 0.3, first
    assert last > first + 0.3, (first, last)
    for turn in ("reward_turn0", "reward_turn1"):  # both turns are taught
        assert mean_of(turn, history[-3:]) > mean_of(turn, history[:3]) + 0.2, turn
    # Actor and learner hold the same weights: MRS at 0.999..1.001 keeps (nearly) everything.
    assert mean_of("mrs_traj_rejected_frac", history) < 0.05
    assert max(s.get("mismatch_kl", 0.0) for s in history) < 1e-4
    assert all(s["optimizer_step"] == 1.0 for s in history[:5])

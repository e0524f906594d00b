"""The actor with the real vLLM CPU engine (the session's one engine), the tiny model, a
real evaluator service (`krl broker` + `krl evaluator` subprocesses) and a real hub
(HubServer over real sockets, in this process).

The actor's loop runs in-process on `session_loop` with the shared engine (a second
engine does not fit this machine). The random tiny model writes no code, so its turns
are format errors judged by the actor itself; `scripted_policy.py` gives the same
architecture weights that write a fenced ModelNew block, which the evaluator judges.
Loading those weights through the hub is the weight-update path under test. The
evaluator's result caches are off, so every turn is really evaluated.
"""

from __future__ import annotations

import asyncio

import pytest
import torch
from actor_setup import (
    ATOL,
    RTOL,
    HubUnderTest,
    actor_config,
    all_versions,
    run_actor,
    text_of,
    until_async,
)
from scripted_policy import TEXT_UNIT

from actor.main import build_runner
from common.metrics import Metrics
from common.problemset import builtin_problem, to_payload


def test_weight_update_through_the_hub_then_episodes_carry_evaluator_feedback(
    vllm_engine, session_loop, actor_weights, actor_service, tmp_path
):
    actor_weights.use("original")
    old = vllm_engine.version
    new = old + 1
    hub = HubUnderTest(tmp_path, ["activation/relu", "activation/gelu"], n_samples=2, max_turns=3)

    async def driver(actor):
        await until_async(lambda: hub.groups(), 120, "a group from the random model")
        hub.publish(new, actor_weights.scripted.items())
        await until_async(
            lambda: any(all_versions(g) == {new} for g in hub.groups()),
            120,
            "a group generated entirely by the published weights",
        )

    try:
        actor = run_actor(
            session_loop.run_until_complete, vllm_engine, actor_config(hub, actor_service), driver
        )
    finally:
        hub.stop()
    actor_weights.labels[new] = "scripted"
    assert vllm_engine.version == new
    assert actor.metrics.registry.get_sample_value("krl_actor_weight_version") == new
    groups = hub.groups()
    before = [g for g in groups if all_versions(g) == {old}]
    after = [g for g in groups if all_versions(g) == {new}]
    assert before and after
    no_code = actor.runner.prompter.cfg.no_code_feedback
    for tr in before[0].trajectories:  # noise: judged by the actor, nothing sent to evaluate
        assert [t.verdict.status for t in tr.turns] == ["format_error"] * 3
        assert all(t.verdict.feedback == no_code for t in tr.turns)
        assert no_code in text_of(vllm_engine, tr.turns[1].prompt_ids)
    for tr in after[0].trajectories:
        assert len(tr.turns) == 3
        for i, turn in enumerate(tr.turns):
            assert text_of(vllm_engine, turn.response_ids).startswith(TEXT_UNIT * 2)
            assert (
                turn.verdict.judged
                and turn.verdict.status == "format_error"
                and turn.verdict.reward == 0
            )
            assert (
                "forward" in turn.verdict.feedback and turn.verdict.feedback != no_code
            )  # the evaluator's words
            assert turn.logprobs.shape == turn.versions.shape == turn.response_ids.shape
            assert 0 < turn.code_start < turn.response_ids.numel()
            if i:
                prev = tr.turns[i - 1]
                prompt = text_of(vllm_engine, turn.prompt_ids)
                assert prev.verdict.feedback in prompt
                # The context only grows: the previous prompt is a token prefix of this one.
                assert torch.equal(turn.prompt_ids[: prev.prompt_ids.numel()], prev.prompt_ids)
    assert actor.outbox.outcomes and set(actor.outbox.outcomes.values()) == {"accepted"}


def test_recorded_logprobs_are_vllms_for_the_recorded_tokens(
    vllm_engine, session_loop, actor_weights, actor_service, tiny_model_dir, tmp_path
):
    from transformers import AutoModelForCausalLM

    actor_weights.use("original")
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed: no hub traffic here
    cfg = actor_config(hub, actor_service, sampling={"max_tokens": 40, "min_tokens": 40, "seed": 7})
    runner = build_runner(cfg, vllm_engine, Metrics("actor"), "lp-test")
    problem = to_payload(builtin_problem("activation/relu"))
    try:
        episode = session_loop.run_until_complete(runner.run(problem, 1, 2, "lp"))
    finally:
        runner.judge.client.close()
    assert len(episode.turns) == 2
    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32).eval()
    for i, record in enumerate(episode.turns):
        turn = record.turn
        # vLLM's own answer to the same request (the seed the episode derived) is identical.
        again = session_loop.run_until_complete(
            vllm_engine.generate(turn.prompt_ids.tolist(), runner._sampling(1, i), f"lp-again-{i}")
        )
        assert again.token_ids == turn.response_ids.tolist()
        # Equal up to float32 summation order: a rerun may take the prefix cache's path and a
        # different CPU kernel split (CI saw 2.9e-6, ~6 ulp of a logprob near -5); a logprob
        # recorded for a neighbouring token or position is off by ~0.1 or more.
        assert again.logprobs == pytest.approx(turn.logprobs.tolist(), abs=2e-5)
        # And they are the policy's logprobs of exactly these tokens in exactly this context,
        # which is what the learner recomputes.
        ids = torch.cat([turn.prompt_ids, turn.response_ids]).long()[None]
        with torch.no_grad():
            logits = model(ids).logits[0, turn.prompt_ids.numel() - 1 : -1]
        eos = [
            vllm_engine.tokenizer.convert_tokens_to_ids(t) for t in ("<|im_end|>", "<|endoftext|>")
        ]
        logits[:, eos] = float("-inf")  # min_tokens masks end-of-turn in vLLM
        ref = logits.log_softmax(-1).gather(-1, turn.response_ids.long()[:, None])[:, 0]
        assert ref.min() < -1.0  # not near-certain tokens: the comparison can fail
        torch.testing.assert_close(turn.logprobs, ref, atol=ATOL, rtol=RTOL)
        assert turn.versions.tolist() == [vllm_engine.version] * 40


def test_seeded_samples_differ_and_many_long_prompts_at_once_keep_the_engine_up(
    vllm_engine, session_loop, actor_weights, actor_service, tmp_path
):
    """32 episodes with distinct long prompts and seeded sampling at once: whole prefills
    (vLLM 0.32's CPU runner dies on a seeded request whose prefill is split over steps)."""
    actor_weights.use("original")
    hub = HubUnderTest(tmp_path, ["activation/relu"], 1, 1)
    hub.stop()  # only its config is needed
    runner = build_runner(
        actor_config(hub, actor_service, sampling={"max_tokens": 16, "seed": 3}),
        vllm_engine,
        Metrics("actor"),
        "seeds",
    )
    names = ["activation/relu", "activation/gelu", "softmax/softmax", "reduction/sum_dim"]
    problems = [to_payload(builtin_problem(n)) for n in names]

    async def all_at_once():
        return await asyncio.gather(
            *(
                runner.run(p, s, 1, f"seeds-{i}-{s}")
                for i, p in enumerate(problems)
                for s in range(8)
            )
        )

    run = session_loop.run_until_complete
    try:
        episodes = run(all_at_once())
        again = run(runner.run(problems[0], 0, 1, "seeds-again"))
    finally:
        runner.judge.client.close()
    answers = [tuple(e.turns[0].turn.response_ids) for e in episodes]
    for i in range(len(problems)):
        assert len(set(answers[8 * i : 8 * i + 8])) == 8, "a group's samples must differ"
    assert tuple(again.turns[0].turn.response_ids) == answers[0]  # reproducible per sample


def test_in_flight_update_tags_tokens_on_both_sides(
    vllm_engine, session_loop, actor_weights, actor_service, tmp_path
):
    actor_weights.use("original")
    old, new = vllm_engine.version, vllm_engine.version + 1
    hub = HubUnderTest(tmp_path, ["activation/relu"], n_samples=1, max_turns=1)
    llm = vllm_engine._llm

    async def driver(actor):
        await until_async(
            lambda: llm.output_processor.get_num_unfinished_requests() > 0,
            60,
            "the answer being generated",
        )
        await asyncio.sleep(0.3)
        hub.publish(new, actor_weights.scripted.items())
        await until_async(lambda: hub.groups(), 120, "the group")

    try:
        run_actor(
            session_loop.run_until_complete,
            vllm_engine,
            actor_config(hub, actor_service, sampling={"max_tokens": 2048, "min_tokens": 2048}),
            driver,
        )
    finally:
        hub.stop()
    actor_weights.labels[new] = "scripted"
    turn = hub.groups()[0].trajectories[0].turns[0]
    versions = turn.versions.tolist()
    n = len(versions)  # capped by the room the prompt leaves in max_model_len
    assert n > 1000
    switch = versions.index(new)
    assert 0 < switch < n - 50, "the update landed mid-answer"
    assert versions == [old] * switch + [new] * (n - switch)
    # Tokens after the switch come from the new weights: they write the script.
    assert "class ModelNew:" in text_of(vllm_engine, turn.response_ids[switch:])
    assert "class ModelNew:" not in text_of(vllm_engine, turn.response_ids[:switch])


def test_relayed_delta_update_lands_in_flight(
    vllm_engine, session_loop, actor_weights, actor_service, tmp_path
):
    """Relay on, and a version published after one the actor holds: it arrives as deltas
    against the held buckets, rebuilt bit-exactly, and still lands mid-answer with every
    token tagged by the version that made it."""
    actor_weights.use("original")
    base, new = vllm_engine.version + 1, vllm_engine.version + 2
    hub = HubUnderTest(tmp_path, ["activation/relu"], n_samples=1, max_turns=1, relay_fanout=1)
    llm = vllm_engine._llm

    async def driver(actor):
        hub.publish(base, actor_weights.original.items())
        await until_async(
            lambda: vllm_engine.version == base and hub.groups(),
            180,
            "the base version loaded and a first group",
        )
        await until_async(
            lambda: llm.output_processor.get_num_unfinished_requests() > 0,
            60,
            "the next answer being generated",
        )
        await asyncio.sleep(0.3)
        hub.publish(new, actor_weights.scripted.items())
        await until_async(lambda: len(hub.groups()) >= 2, 180, "the second group")

    try:
        actor = run_actor(
            session_loop.run_until_complete,
            vllm_engine,
            actor_config(hub, actor_service, sampling={"max_tokens": 2048, "min_tokens": 2048}),
            driver,
        )
    finally:
        hub.stop()
    actor_weights.labels[new] = "scripted"
    buckets = actor.metrics.registry.get_sample_value
    assert buckets("krl_actor_weight_buckets_total", {"encoding": "delta"}) > 0
    turn = hub.groups()[1].trajectories[0].turns[0]
    versions = turn.versions.tolist()
    switch = versions.index(new)
    assert 0 < switch < len(versions) - 50, "the update landed mid-answer"
    assert versions == [base] * switch + [new] * (len(versions) - switch)
    assert "class ModelNew:" in text_of(vllm_engine, turn.response_ids[switch:])
    assert "class ModelNew:" not in text_of(vllm_engine, turn.response_ids[:switch])

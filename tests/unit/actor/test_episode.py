"""One episode with a scripted engine and judge: each turn's record is the wire `Turn` the
learner gets (ids and versions int32, vLLM's logprobs float32, the verdict without its
diagnostics, where the code starts), built once and sent as it is; the actor reads the
same verdict for the next prompt and to end an episode with no verdict."""

from __future__ import annotations

import asyncio

import pytest
import torch
from test_prompts import PROBLEM, Encoder

from actor.engine import Generation
from actor.episode import EpisodeMetrics, EpisodeRunner, code_start
from actor.prompts import Prompter
from common.config.actor import PromptsConfig, SamplingConfig
from common.extract import extract_code
from common.messages import Trajectory, TrajectoryGroup, decode, encode
from common.metrics import Metrics
from common.verdict import Verdict, no_verdict

ANSWER = "Fusing it.\n\n```python\nimport torch\nclass ModelNew(torch.nn.Module):\n    pass\n```\n"


class ScriptedEngine(Encoder):
    """Answers every prompt with ANSWER, each token at logprob -0.25, made by version 3."""

    def __init__(self, model_dir):
        super().__init__(model_dir)
        self.prompts: list[list[int]] = []

    async def generate(self, prompt_ids, sampling, request_id) -> Generation:
        self.prompts.append(list(prompt_ids))
        ids = self.tokenizer.encode(ANSWER, add_special_tokens=False)
        return Generation(ids, [-0.25] * len(ids), [3] * len(ids), "stop", ANSWER, len(prompt_ids))


class ScriptedJudge:
    def __init__(self, verdicts):
        self.verdicts = list(verdicts)

    async def judge(self, problem, text):
        return extract_code(text), self.verdicts.pop(0)


def _run(tiny_model_dir, verdicts, max_turns):
    engine = ScriptedEngine(tiny_model_dir)
    runner = EpisodeRunner(
        engine,
        ScriptedJudge(verdicts),
        Prompter(PromptsConfig(), engine, 4096),
        SamplingConfig(),
        EpisodeMetrics(Metrics("actor")),
    )
    return engine, asyncio.run(runner.run(PROBLEM, 0, max_turns, "ep"))


def test_each_turn_record_is_the_wire_turn_the_learner_gets(tiny_model_dir):
    first = Verdict(
        "incorrect",
        feedback="max abs diff 0.5",
        details={"phase": "correctness"},
        phase_seconds={"compile": 0.1},
    )
    second = Verdict("ok", correct=True, speedup=1.5, reward=1.25, coverage=0.5)
    engine, episode = _run(tiny_model_dir, [first, second], 2)
    assert episode.end == "max_turns" and len(episode.turns) == 2
    ids = engine.tokenizer.encode(ANSWER, add_special_tokens=False)
    for record, prompt, verdict in zip(episode.turns, engine.prompts, [first, second]):
        turn = record.turn
        assert (
            turn.prompt_ids.dtype == turn.response_ids.dtype == turn.versions.dtype == torch.int32
        )
        assert turn.logprobs.dtype == torch.float32
        assert turn.prompt_ids.tolist() == prompt and turn.response_ids.tolist() == ids
        assert turn.logprobs.tolist() == [-0.25] * len(ids) and turn.versions.tolist() == [3] * len(
            ids
        )
        assert turn.verdict == verdict.without_details() and record.verdict is turn.verdict
        assert turn.verdict.details == {} and turn.verdict.phase_seconds == {}
        assert turn.code_start == code_start(engine, ids, ANSWER, extract_code(ANSWER)) > 0
        assert record.text == ANSWER and record.code == extract_code(ANSWER)
    # The second prompt carries the first verdict's feedback, as the record holds it.
    assert "max abs diff 0.5" in engine.decode(engine.prompts[1])
    # What the loop sends is these very structs, and they cross the wire unchanged.
    group = TrajectoryGroup(
        request_id="r",
        group_id="g",
        lease_id="l",
        prompt_id="p",
        problem_name=PROBLEM.name,
        actor_id="a",
        trajectories=[Trajectory(sample_index=0, turns=[t.turn for t in episode.turns])],
    )
    back = decode(encode(group), expect=TrajectoryGroup).trajectories[0].turns
    for sent, got in zip(episode.turns, back):
        assert got.verdict == sent.turn.verdict and got.code_start == sent.turn.code_start
        for name in ("prompt_ids", "response_ids", "logprobs", "versions"):
            assert torch.equal(getattr(got, name), getattr(sent.turn, name)), name


@pytest.mark.parametrize("source", ["evaluator", "actor"])
def test_a_turn_with_no_verdict_ends_the_episode_and_is_recorded_unjudged(tiny_model_dir, source):
    _, episode = _run(tiny_model_dir, [no_verdict(source, "no verdict in time", "timeout")], 3)
    assert episode.end == "unevaluated" and len(episode.turns) == 1
    assert not episode.turns[0].turn.verdict.judged
    assert episode.turns[0].turn.verdict.error_source == source

"""One multi-turn episode: generate, judge, feed back, repeat; every turn recorded.

`run_episode` plays one sample of one problem for up to `max_turns` turns:

    prompt = [system, user(problem)]
    repeat:
        answer  = engine.generate(prompt)       token ids, vLLM logprobs, versions
                                                (stretched to actor.simulate.generation_s)
        verdict = judge(problem, answer)        extract code, evaluate (actor/judge.py)
        record the turn
        stop if no verdict on the candidate came (verdict.judged False) or this was the last turn
        prompt += [answer, user(feedback)]      within the token budget (actor/prompts.py)
        stop if it does not fit

A turn's record is the wire `Turn` itself (common/messages.py), built once when the turn
is judged and sent to the learner as it is: exactly what the model saw and did (the turn's
full prompt ids, the sampled ids, vLLM's logprob and the policy version of each sampled
token), its verdict without diagnostics, and where the code begins. The learner recomputes
logprobs from these ids, so nothing re-tokenizes them. Beside it the actor keeps what only
it reads: the answer's text and code and the feedback message that followed.

`window` (benchmark's sequential test-time scaling) shows only some earlier turns
in the context: the best one so far (highest reward, the latest on ties) plus the
most recent ones, `window` turns in all, in their original order.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from actor.engine import Engine
from actor.judge import Judge
from actor.prompts import Feedback, PastTurn, Prompter
from common.config.actor import ActorSimulateConfig, SamplingConfig
from common.messages import ProblemPayload, Turn
from common.metrics import Metrics
from common.verdict import Verdict


@dataclass
class TurnRecord:
    """One turn as generated and judged: `turn` is what the learner gets, the rest only
    this actor reads."""

    turn: Turn  # the wire record (common/messages.py), sent as it is
    text: str  # the answer's text
    code: str | None = None  # the code the answer held (None: no code block)
    finish_reason: str = ""
    feedback_message: str = ""  # the user message that followed it in the context

    @property
    def verdict(self) -> Verdict:
        """common/verdict.py; judged False: no verdict on the candidate came."""
        return self.turn.verdict


def wire_turn(prompt_ids: Sequence[int], gen: Any, verdict: Verdict, code_start: int) -> Turn:
    """The learner's record of a generated, judged turn: ids and versions as int32, vLLM's
    logprobs as float32, the verdict without its diagnostics (common/verdict.py)."""
    return Turn(
        prompt_ids=torch.tensor(list(prompt_ids), dtype=torch.int32),
        response_ids=torch.tensor(gen.token_ids, dtype=torch.int32),
        logprobs=torch.tensor(gen.logprobs, dtype=torch.float32),
        versions=torch.tensor(gen.versions, dtype=torch.int32),
        verdict=verdict.without_details(),
        code_start=code_start,
    )


@dataclass
class Episode:
    """A finished episode; `end` says why it stopped."""

    sample_index: int
    turns: list[TurnRecord] = field(default_factory=list)
    end: str = ""  # max_turns | unevaluated | context_full | prompt_too_long


class EpisodeMetrics:
    """The actor's per-turn and per-episode counters."""

    def __init__(self, m: Metrics):
        self.turns = m.counter("turns_total", "Turns finished, by verdict status", ["status"])
        self.episodes = m.counter("episodes_total", "Episodes finished, by why they ended", ["end"])
        self.tokens = m.counter("generated_tokens_total", "Tokens sampled")
        self.gen_s = m.histogram(
            "generation_seconds",
            "Seconds to generate one turn's answer",
            buckets=(0.1, 0.3, 1, 3, 10, 30, 60, 120, 300, 600),
        )
        self.judge_s = m.histogram(
            "judge_seconds",
            "Seconds from answer to verdict, retries included",
            buckets=(0.01, 0.1, 0.3, 1, 3, 10, 30, 60, 120, 300, 900),
        )


@dataclass
class EpisodeRunner:
    """Everything an episode needs, shared by all episodes of a process."""

    engine: Engine
    judge: Judge
    prompter: Prompter
    sampling: SamplingConfig
    metrics: EpisodeMetrics
    simulate: ActorSimulateConfig = field(default_factory=ActorSimulateConfig)

    def __post_init__(self) -> None:
        self._latency_rng = random.Random(self.simulate.seed)

    async def run(
        self,
        problem: ProblemPayload,
        sample_index: int,
        max_turns: int,
        request_prefix: str,
        window: int | None = None,
    ) -> Episode:
        episode = Episode(sample_index)
        prompt_ids = self.prompter.first_prompt(problem)
        if prompt_ids is None:
            return self._end(episode, "prompt_too_long")
        for turn in range(max_turns):
            record = await self._turn(
                problem, prompt_ids, sample_index, turn, f"{request_prefix}-t{turn}"
            )
            episode.turns.append(record)
            if not record.verdict.judged:
                return self._end(episode, "unevaluated")
            if turn + 1 == max_turns:
                break
            prompt_ids = self._next_prompt(problem, episode.turns, window)
            if prompt_ids is None:
                return self._end(episode, "context_full")
        return self._end(episode, "max_turns")

    async def _turn(
        self,
        problem: ProblemPayload,
        prompt_ids: list[int],
        sample: int,
        turn: int,
        request_id: str,
    ) -> TurnRecord:
        t0 = time.perf_counter()
        gen = await self.engine.generate(prompt_ids, self._sampling(sample, turn), request_id)
        await self._simulated_generation(t0)
        t1 = time.perf_counter()
        code, verdict = await self.judge.judge(problem, gen.text)
        self.metrics.gen_s.observe(t1 - t0)
        self.metrics.judge_s.observe(time.perf_counter() - t1)
        self.metrics.tokens.inc(len(gen.token_ids))
        self.metrics.turns.labels(verdict.label).inc()
        start = code_start(self.engine, gen.token_ids, gen.text, code)
        return TurnRecord(
            wire_turn(prompt_ids, gen, verdict, start), gen.text, code, gen.finish_reason
        )

    async def _simulated_generation(self, started: float) -> None:
        """actor.simulate: stretch the turn to a drawn target, standing in for a big model."""
        sim = self.simulate
        if sim.generation_s <= 0:
            return
        target = sim.generation_s * (1 + sim.generation_jitter * self._latency_rng.uniform(-1, 1))
        await asyncio.sleep(max(0.0, started + target - time.perf_counter()))

    def _sampling(self, sample: int, turn: int) -> SamplingConfig:
        if self.sampling.seed is None:
            return self.sampling
        # A fixed seed would give every sample of a group the same answer.
        return self.sampling.model_copy(
            update={"seed": self.sampling.seed + 100_003 * sample + turn}
        )

    def _next_prompt(
        self, problem: ProblemPayload, turns: list[TurnRecord], window: int | None
    ) -> list[int] | None:
        shown = turns if window is None else [turns[i] for i in window_indices(turns, window)]
        past = [PastTurn(self.prompter.context_answer(t.text), t.feedback_message) for t in shown]
        v = turns[-1].verdict
        fitted = self.prompter.next_turn(
            problem, past, Feedback(v.status, v.feedback, v.reward, v.speedup), len(turns)
        )
        if fitted is None:
            return None
        turns[-1].feedback_message, ids = fitted
        return ids

    def _end(self, episode: Episode, why: str) -> Episode:
        episode.end = why
        self.metrics.episodes.labels(why).inc()
        return episode


def window_indices(turns: Sequence[TurnRecord], window: int) -> list[int]:
    """Indices of the turns to show: the best so far plus the latest, `window` in all,
    in order. The newest turn is always shown (its feedback is what comes next)."""
    n = len(turns)
    if n <= window:
        return list(range(n))
    best = max(range(n), key=lambda i: (turns[i].verdict.reward, i))
    recent = list(range(n - window, n))
    if best not in recent:
        recent = [best] + recent[1:]
    return sorted(recent)


def code_start(engine: Any, token_ids: Sequence[int], text: str, code: str | None) -> int:
    """Index of the token where the extracted code block's opening fence begins; 0 when
    unknown (then every token counts as code for hierarchical credit)."""
    if not code or not token_ids:
        return 0
    body = text.rfind(code.rstrip("\n"))
    fence = text.rfind("```", 0, body) if body >= 0 else -1
    if fence < 0:
        return 0
    lo, hi = 0, len(token_ids) - 1  # first token whose decoded prefix reaches the fence
    while lo < hi:
        mid = (lo + hi) // 2
        if len(engine.decode(token_ids[: mid + 1])) > fence:
            hi = mid
        else:
            lo = mid + 1
    return lo


__all__ = [
    "Episode",
    "EpisodeMetrics",
    "EpisodeRunner",
    "TurnRecord",
    "code_start",
    "window_indices",
    "wire_turn",
]

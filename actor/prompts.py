"""What the model reads each turn: the first prompt, the feedback turns, the token budget.

An episode is one chat. Turn 1 is `[system, user(problem)]`; every later turn
appends the model's previous answer and a user message rendered from the
evaluator's verdict with `prompts.feedback_template`. The templates and their
defaults are common/prompts.py's (`krl sft-data` writes its data with the same texts);
`common.config.actor.PromptsConfig` holds them, docs/prompts.md documents them.

Budget: the feedback of one verdict is cut to `feedback_max_tokens` (keeping its
head and tail, where a traceback's cause and exception are). A next turn is
started only if its whole prompt leaves `min_response_tokens` for the answer
within the engine's `max_model_len`; if it would not, the newest feedback is cut
further, and when even a minimal feedback does not fit the episode ends there
(`next_turn` returns None).

Reasoning: with `keep_thinking: false` the `<think>...</think>` text of earlier
answers is stripped from the context (the sampled tokens themselves are recorded
untouched); code extraction ignores it either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from common.config.actor import PromptsConfig
from common.extract import strip_thinking
from common.messages import ProblemPayload
from common.prompts import CUT_MARKER

MIN_FEEDBACK_TOKENS = 16  # below this a verdict says nothing useful: end the episode instead


class ChatEncoder(Protocol):
    """What the prompter needs from the engine (actor.engine.Engine has it)."""

    tokenizer: Any

    def chat_prompt_ids(self, messages: Sequence[dict[str, str]]) -> list[int]: ...


@dataclass
class Feedback:
    """The verdict fields a feedback message may show."""

    status: str
    text: str
    reward: float = 0.0
    speedup: float | None = None


@dataclass
class PastTurn:
    """One earlier turn as the context shows it: the answer and the feedback after it."""

    answer: str
    feedback_message: str


class Prompter:
    """Renders an episode's chat and keeps it within the context budget."""

    def __init__(self, cfg: PromptsConfig, encoder: ChatEncoder, max_model_len: int):
        self.cfg, self.encoder, self.max_model_len = cfg, encoder, max_model_len

    def first_messages(self, problem: ProblemPayload) -> list[dict[str, str]]:
        source = problem.source if problem.source.endswith("\n") else problem.source + "\n"
        user = self.cfg.user_template.format(reference_code=source, problem_name=problem.name)
        system = [{"role": "system", "content": self.cfg.system}] if self.cfg.system else []
        return [*system, {"role": "user", "content": user}]

    def first_prompt(self, problem: ProblemPayload) -> list[int] | None:
        """Token ids of turn 1, or None when the problem alone leaves no room to answer."""
        ids = self.encoder.chat_prompt_ids(self.first_messages(problem))
        return ids if self._room(ids) >= self.cfg.min_response_tokens else None

    def context_answer(self, response_text: str) -> str:
        """An answer as later turns' context shows it."""
        return response_text if self.cfg.keep_thinking else strip_thinking(response_text).strip()

    def feedback_message(
        self, fb: Feedback, turn: int, problem: ProblemPayload, max_tokens: int | None = None
    ) -> str:
        """The user message after turn `turn` (1-based), feedback cut to its token budget."""
        budget = self.cfg.feedback_max_tokens if max_tokens is None else max_tokens
        return self.cfg.feedback_template.format(
            status=fb.status,
            feedback=self.cut(fb.text.strip(), budget),
            turn=turn,
            reward=f"{fb.reward:.3g}",
            speedup="n/a" if fb.speedup is None else f"{fb.speedup:.3g}",
            problem_name=problem.name,
        )

    def next_turn(
        self, problem: ProblemPayload, past: Sequence[PastTurn], fb: Feedback, turn: int
    ) -> tuple[str, list[int]] | None:
        """The feedback message for `turn` and the next prompt's token ids, or None if no
        feedback of at least MIN_FEEDBACK_TOKENS leaves min_response_tokens to answer.
        `past` holds the earlier turns to show, the last one without its feedback yet."""
        base = self.first_messages(problem)
        for p in past[:-1]:
            base += [
                {"role": "assistant", "content": p.answer},
                {"role": "user", "content": p.feedback_message},
            ]
        base.append({"role": "assistant", "content": past[-1].answer})
        budget = self.cfg.feedback_max_tokens
        for _ in range(3):  # cutting changes the count by about the deficit; rarely a 2nd pass
            message = self.feedback_message(fb, turn, problem, budget)
            ids = self.encoder.chat_prompt_ids(base + [{"role": "user", "content": message}])
            deficit = self.cfg.min_response_tokens - self._room(ids)
            if deficit <= 0:
                return message, ids
            budget = min(budget, self._count(fb.text.strip())) - deficit - self._count(CUT_MARKER)
            if budget < MIN_FEEDBACK_TOKENS:
                return None
        return None

    def cut(self, text: str, max_tokens: int) -> str:
        """`text` within `max_tokens` tokens: its head (a third) and tail, marked between."""
        tok = self.encoder.tokenizer
        ids = tok.encode(text, add_special_tokens=False)
        if len(ids) <= max_tokens:
            return text
        keep = max(2, max_tokens - len(tok.encode(CUT_MARKER, add_special_tokens=False)) - 2)
        head = keep // 3
        tail = keep - head
        marker = CUT_MARKER.format(n=len(ids) - head - tail)
        return tok.decode(ids[:head]) + marker + tok.decode(ids[len(ids) - tail :])

    def _count(self, text: str) -> int:
        return len(self.encoder.tokenizer.encode(text, add_special_tokens=False))

    def _room(self, prompt_ids: Sequence[int]) -> int:
        return self.max_model_len - len(prompt_ids)

"""One turn's verdict: the candidate code out of the answer, then the evaluator service.

`Judge.judge(problem, response_text)` returns the extracted code and the evaluator's
`Verdict` (common/verdict.py) and never raises for anything the evaluator service does:
  - no code block in the answer: `format_error`, decided here (nothing to evaluate),
    unless actor.simulate.evaluate_every_answer sends the whole text (benchmarks);
  - the broker is unreachable (`EvaluatorUnavailable`): resubmit the same request id
    with capped exponential backoff until the turn's deadline (the broker dedupes
    ids and caches results, so a resubmission is never evaluated twice);
  - no verdict by the deadline (`EvaluationTimeout`) or a refused request: a verdict
    whose `error_source` is the actor's; a result that is no verdict on the candidate
    (the evaluator's, the broker's, the harness's or the problem's failure) as it came.
    Neither is `judged`: the episode ends at such a turn and the learner does not train
    on it.
"""

from __future__ import annotations

import asyncio
import logging
import time

from common.config.actor import ActorEvalConfig
from common.eval_client import (
    EvalClient,
    EvaluationRejected,
    EvaluationTimeout,
    EvaluatorUnavailable,
)
from common.extract import extract_code
from common.log import RateLimitedLog
from common.messages import EvalSettings, ProblemPayload, new_id
from common.transport import Backoff
from common.verdict import Verdict, no_verdict

log = logging.getLogger(__name__)


class Judge:
    """Extracts code and gets its verdict from the evaluator service (see module doc)."""

    def __init__(
        self,
        client: EvalClient,
        cfg: ActorEvalConfig,
        default_deadline_s: float,
        no_code_feedback: str,
        evaluate_every_answer: bool = False,
    ):
        self.client, self.cfg = client, cfg
        self.evaluate_every_answer = evaluate_every_answer  # actor.simulate: no local format_error
        self.deadline_s = cfg.deadline_s or default_deadline_s
        self.no_code_feedback = no_code_feedback
        self.settings = EvalSettings(
            device=cfg.device,
            timeout_s=cfg.timeout_s,
            trials=cfg.trials,
            timing=cfg.timing,
            profile=cfg.profile,
        )
        self._warn = RateLimitedLog(log, interval_s=30.0)

    async def judge(
        self, problem: ProblemPayload, response_text: str
    ) -> tuple[str | None, Verdict]:
        """(the code the answer holds or None, its verdict)."""
        code = extract_code(response_text)
        if code is None and self.evaluate_every_answer:
            code = response_text
        if code is None:
            return None, Verdict(
                "format_error", feedback=self.no_code_feedback, error_source="candidate"
            )
        return code, await self.evaluate(problem, code)

    async def evaluate(self, problem: ProblemPayload, code: str) -> Verdict:
        deadline = time.monotonic() + self.deadline_s
        request_id = new_id()  # one id for every resubmission: evaluated at most once
        backoff = Backoff(self.cfg.retry_min_s, self.cfg.retry_max_s)
        while (left := deadline - time.monotonic()) > 0:
            try:
                rid = self.client.submit(
                    problem, code, self.settings, deadline_s=left, request_id=request_id
                )
                return (await self.client.result(rid)).verdict
            except EvaluatorUnavailable as exc:
                # Deliberate retry: the service may come back within this turn's deadline.
                self._warn.warning("unavailable", "evaluator unreachable, retrying: %s", exc)
                await asyncio.sleep(min(backoff.next_delay(), max(left, 0.0)))
            except EvaluationTimeout:
                break
            except EvaluationRejected as exc:
                # The broker refused this request (e.g. invalid): no verdict will come.
                self._warn.warning("rejected", "evaluation request refused: %s", exc)
                return no_verdict("actor", str(exc))
        return no_verdict("actor", f"no verdict within {self.deadline_s:g}s", "timeout")
